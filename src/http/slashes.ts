// Paths with repeated slashes (`//users`: Java's client joins a base URL ending in `/` to paths
// beginning with one). The real API routed them as if each run of slashes were one; the mock does
// the same for API paths the router does not take as sent, and remembers the path as sent, so
// the request's warning and strict mode can name it.

const originals = new WeakMap<Request, string>();

/** The request's path as sent, when the mock routed it with its repeated slashes folded. */
export const originalPathOf = (request: Request): string | undefined => originals.get(request);

/** The same request at the path with runs of slashes folded, or undefined when there are none. */
export function foldSlashes(request: Request, pathname: string): Request | undefined {
  if (!pathname.includes('//')) return undefined;
  const folded = pathname.replace(/\/{2,}/g, '/');
  // The control plane is the mock's own: its clients write its paths as documented.
  if (folded.startsWith('/__admin')) return undefined;
  const url = new URL(request.url);
  url.pathname = folded;
  const again = new Request(url, request);
  originals.set(again, pathname);
  return again;
}
