// The one host `import` talks to: GETs through the v1 API with Intercom-Version 1.4, obeying its
// rate limit (X-RateLimit-Remaining 0 waits for X-RateLimit-Reset, a 429 backs off and retries).

export class ImportError extends Error {}

export const API_VERSION = '1.4';
/** Attempts of one request that keeps getting 429 or a network error before the import gives up. */
const MAX_ATTEMPTS = 8;
/** The longest wait for a rate-limit window, whatever the headers say. */
const MAX_WAIT_MS = 60_000;
/** One request's answer, head and body, must come within this. */
const REQUEST_TIMEOUT_MS = 60_000;

export interface UpstreamOptions {
  from: string;
  token: string;
  /** Told each wait: why and for how long. */
  say: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
}

/** Seconds until the window resets, measured on the upstream's clock (its Date header), not ours. */
function windowWaitMs(res: Response): number | undefined {
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  if (!Number.isFinite(reset) || reset <= 0) return undefined;
  const date = Date.parse(res.headers.get('date') ?? '');
  const now = Number.isNaN(date) ? undefined : Math.floor(date / 1000);
  if (now === undefined) return undefined;
  return Math.min(MAX_WAIT_MS, Math.max(0, (reset - now) * 1000) + 100);
}

export class Upstream {
  readonly base: string;
  private readonly options: UpstreamOptions;
  private readonly sleep: (ms: number) => Promise<void>;
  requests = 0;

  constructor(options: UpstreamOptions) {
    this.base = options.from.replace(/\/+$/, '');
    this.options = options;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /**
   * GET a path, or an absolute URL the upstream gave (pages.next) on its own origin only: the token
   * goes to no other host.
   */
  async get<T>(pathOrUrl: string): Promise<T> {
    const url = /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${this.base}${pathOrUrl}`;
    if (new URL(url).origin !== new URL(this.base).origin) throw new ImportError(`the upstream's link ${url.slice(0, 200)} leaves ${new URL(this.base).origin}: refused, the token goes to no other host`);
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      let text: string;
      try {
        res = await fetch(url, { headers: { authorization: `Bearer ${this.options.token}`, accept: 'application/json', 'intercom-version': API_VERSION }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        text = await res.text();
      } catch (err) {
        const why = (err as Error).message;
        if (attempt >= MAX_ATTEMPTS) throw new ImportError(`${url}: ${why}`);
        const wait = 250 * 2 ** attempt;
        this.options.say(`${why}: trying again in ${(wait / 1000).toFixed(1)} s`);
        await this.sleep(wait);
        continue;
      }
      this.requests++;
      if (res.status === 429 || res.status >= 500) {
        if (attempt >= MAX_ATTEMPTS) throw new ImportError(`${url}: still ${res.status} after ${MAX_ATTEMPTS} attempts`);
        const wait = (res.status === 429 ? windowWaitMs(res) : undefined) ?? 1000 * 2 ** Math.min(attempt, 5);
        this.options.say(`${res.status === 429 ? 'rate limited (429)' : `the upstream answered ${res.status}`}: waiting ${(wait / 1000).toFixed(1)} s`);
        await this.sleep(wait);
        continue;
      }
      if (!res.ok) throw new ImportError(refusal(url, res.status, text));
      if (res.headers.get('x-ratelimit-remaining') === '0') {
        const wait = windowWaitMs(res);
        if (wait !== undefined && wait > 0) {
          this.options.say(`rate limit reached: waiting ${(wait / 1000).toFixed(1)} s for the next window`);
          await this.sleep(wait);
        }
      }
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new ImportError(`${url}: the answer is not JSON`);
      }
    }
  }
}

/** One line saying why the upstream refused, the version refusal in words of its own. */
function refusal(url: string, status: number, text: string): string {
  let first: { code?: string; message?: string } | undefined;
  try {
    first = (JSON.parse(text) as { errors?: { code?: string; message?: string }[] }).errors?.[0];
  } catch {
    first = undefined;
  }
  if (first?.code === 'intercom_version_invalid') return `the workspace refused Intercom-Version: ${API_VERSION} (the last v1 version): ${first.message ?? ''}`.trim();
  if (status === 401) return `${url}: 401 ${first?.code ?? ''}: check --token (or IMPORT_TOKEN)`.trim();
  return `${url}: ${status}${first ? ` ${first.code ?? ''}: ${first.message ?? ''}` : ''}`;
}
