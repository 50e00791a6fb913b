// Helpers for the tests where real sockets and processes matter: spawning the command line,
// speaking raw HTTP, waiting for a process or a port.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { expect } from 'vitest';

export const ROOT = new URL('..', import.meta.url).pathname;
/** The built entry `npm start` runs (`npm run build` bundles it into dist/cli/): starts in well under a second. */
export const BUILT = ['dist/cli/index.js'];

export interface Spawned {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): { stdout: string; stderr: string };
}

export function spawnLogged(command: string, args: string[], env?: NodeJS.ProcessEnv): Spawned {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env } : {}) });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => (stdout += d));
  child.stderr?.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

export function runCli(args: string[], entry: string[] = ['--import', 'tsx', 'src/index.ts']): Spawned {
  return spawnLogged(process.execPath, [...entry, ...args]);
}

/** Polls until `probe` gives a value; the caller's test timeout is the real bound. */
export async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The URL a spawned server says it listens on; a server that exits first fails at once, with its stderr. */
export const listeningUrl = (cli: Spawned) =>
  waitFor(() => {
    const url = /listening on (https?:\/\/\S+)/.exec(cli.output().stdout)?.[1];
    if (url === undefined && (cli.child.exitCode !== null || cli.child.signalCode !== null)) throw new Error(`the server exited before listening: ${cli.output().stderr.slice(0, 2000)}`);
    return url;
  });

export interface RawReply {
  /** Everything the server sent before it closed the connection. */
  text: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function parseReply(text: string): RawReply {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, end < 0 ? text.length : end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { text, status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1] ?? 0), headers, body: end < 0 ? '' : text.slice(end + 4) };
}

/** Writes `text` on a fresh connection and resolves with all the server sent once it closes. */
export function rawRequest(port: number, text: string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let out = '';
    socket.on('data', (d) => (out += d));
    socket.on('close', () => resolve(parseReply(out)));
    socket.on('error', reject);
  });
}

/** Resolves with the connect error's code, or 'connected' if something still listens. */
export function connectOutcome(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

/** A port nothing listens on right now (the kernel's pick, released again). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every process below `pid` (children, their children, ...), from `ps`. */
export function descendants(pid: number): number[] {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' }).trim().split('\n').map((line) => line.trim().split(/\s+/).map(Number));
  const found: number[] = [];
  for (let parents = [pid]; parents.length > 0; ) {
    parents = rows.filter(([, ppid]) => parents.includes(ppid as number)).map(([child]) => child as number);
    found.push(...parents);
  }
  return found;
}

/** Hits of the first fault the server holds (0 when none). */
export const faultsHit = async (url: string): Promise<number> =>
  ((await (await fetch(`${url}/__admin/faults`)).json()) as { faults: { hits: number }[] }).faults[0]?.hits ?? 0;

/** Makes every request of the demo app wait `ms` before it is answered. */
export async function injectLatency(url: string, ms: number): Promise<void> {
  const res = await fetch(`${url}/__admin/faults?app=demo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latency_ms: ms }) });
  expect(res.status).toBe(201);
}
