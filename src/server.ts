// Listening: the only place a port is opened.

import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export function listen(app: Hono, port: number, host: string): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    const server: ServerType = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
      server.off('error', onError);
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            const s = server as ServerType & { closeAllConnections?: () => void };
            s.close(() => done());
            s.closeAllConnections?.();
          }),
      });
    });
    server.on('error', onError);
  });
}
