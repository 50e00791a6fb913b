// Traffic's webhook deliveries: one row per notification and subscription, newest attempt first,
// read a page at a time from /__admin/webhooks/deliveries (refreshed every few seconds while shown);
// one opens to each attempt's request (body as sent, signature header) and the receiver's answer.

import { useEffect, useState } from 'preact/hooks';
import { api, when, type Delivery, type DeliveryAttempt } from '../api.js';
import { ErrorNote, Pager, Section, useLoad, usePages } from '../common.js';

const REFRESH_MS = 2000;

const headerOf = (headers: Record<string, string>, name: string): string | undefined => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];

function Attempt({ a }: { a: DeliveryAttempt }) {
  return (
    <Section title={`Attempt ${a.attempt}`}>
      <dl class="attrs">
        <div>
          <dt>answered</dt>
          <dd>
            {when(a.at)}
            {a.duration_ms === null ? '' : ` after ${a.duration_ms} ms`}
          </dd>
        </div>
        <div>
          <dt>request</dt>
          <dd class="mono">
            {a.request.method} {a.request.uri}
          </dd>
        </div>
        <div>
          <dt>X-Hub-Signature</dt>
          <dd class="mono">{headerOf(a.request.headers, 'x-hub-signature') ?? '(none: the subscription has no hub_secret)'}</dd>
        </div>
        <div>
          <dt>request body</dt>
          <dd>
            <pre>{a.request.body}</pre>
          </dd>
        </div>
        <div>
          <dt>response</dt>
          <dd>{a.error === null ? <span class={`status s${String(a.status)[0]}`}>{a.status}</span> : <span class="error-text">no answer: {a.error}</span>}</dd>
        </div>
        {a.error === null && (
          <>
            <div>
              <dt>response headers</dt>
              <dd>
                <pre>{JSON.stringify(a.response.headers, null, 2)}</pre>
              </dd>
            </div>
            <div>
              <dt>response body</dt>
              <dd>
                <pre>{a.response.body === '' ? '(empty)' : a.response.body}</pre>
              </dd>
            </div>
          </>
        )}
      </dl>
    </Section>
  );
}

const keyOf = (d: Delivery) => `${d.subscription_id}/${d.notification_id}`;

export function DeliveriesPanel({ app }: { app: string }) {
  const pages = usePages();
  const { offset } = pages;
  const [opened, setOpened] = useState<string | undefined>(undefined);
  const page = useLoad(() => api.deliveries(app, offset), [app, offset]);
  useEffect(() => {
    const timer = setInterval(page.reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [page.reload]);
  useEffect(() => {
    pages.reset();
    setOpened(undefined);
  }, [app]);
  const list = page.data?.deliveries ?? [];
  const shown = list.find((d) => keyOf(d) === opened);
  return (
    <>
      <Section
        title="Webhook deliveries"
        actions={
          <button type="button" onClick={page.reload}>
            Refresh deliveries
          </button>
        }
      >
        <ErrorNote error={page.error} />
        <div class="scroll">
          <table>
            <caption class="sr-only">Webhook deliveries, newest attempt first</caption>
            <thead>
              <tr>
                <th scope="col">Last answer</th>
                <th scope="col">Topic</th>
                <th scope="col">Notification</th>
                <th scope="col">Subscription</th>
                <th scope="col" class="num">Attempts</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {list.map((d) => {
                const last = d.attempts[0];
                return (
                  <tr key={keyOf(d)} class={opened === keyOf(d) ? 'selected' : undefined}>
                    <td>{when(last?.at)}</td>
                    <td class="mono">{d.topic}</td>
                    <th scope="row" class="mono">
                      <a
                        href={`#delivery-${d.notification_id}`}
                        aria-expanded={opened === keyOf(d)}
                        onClick={(ev) => {
                          ev.preventDefault();
                          setOpened(opened === keyOf(d) ? undefined : keyOf(d));
                        }}
                      >
                        {d.notification_id}
                      </a>
                    </th>
                    <td class="mono">{d.subscription_id}</td>
                    <td class="num">{d.attempts.length}</td>
                    <td>
                      {d.state}
                      {last && (last.error === null ? ` (${last.status})` : ' (no answer)')}
                    </td>
                  </tr>
                );
              })}
              {list.length === 0 && (
                <tr>
                  <td colSpan={6} class="sub">
                    No deliveries yet: subscribe a receiver (POST /subscriptions), write something it listens for, and run the pending jobs.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
        {page.data && <Pager pages={pages} next={page.data.next_offset} total={page.data.total} shown={list.length} label="Deliveries" />}
      </Section>
      {shown && (
        <div class="entry" aria-label={`Delivery ${shown.notification_id}`}>
          <p class="sub">
            {shown.topic} to {shown.url}, made {when(shown.created_at)}
          </p>
          <div class="grid">
            {shown.attempts.map((a, i) => (
              <Attempt key={`${a.attempt}-${i}`} a={a} />
            ))}
          </div>
        </div>
      )}
    </>
  );
}
