// Tags and segments with how many records hold each.

import { api } from '../api.js';
import { ErrorNote, Pager, Section, useLoad, usePages } from '../common.js';

export function Labels({ app }: { app: string }) {
  const pages = usePages();
  const segmentPages = usePages();
  const tags = useLoad(() => api.tags(app, pages.offset), [app, pages.offset]);
  const segments = useLoad(() => api.segments(app, segmentPages.offset), [app, segmentPages.offset]);
  return (
    <div class="grid">
      <Section title="Tags">
        <ErrorNote error={tags.error} />
        <table>
          <caption class="sr-only">Tags</caption>
          <thead>
            <tr>
              <th scope="col">Tag</th>
              <th scope="col" class="num">Users and leads</th>
              <th scope="col" class="num">Companies</th>
            </tr>
          </thead>
          <tbody>
            {(tags.data?.tags ?? []).map((t) => (
              <tr key={t.id}>
                <th scope="row">
                  {t.name} <span class="sub mono">{t.id}</span>
                </th>
                <td class="num">{t.people}</td>
                <td class="num">{t.companies}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {tags.data && <Pager pages={pages} label="Tags" next={tags.data.next_offset} total={tags.data.total} shown={tags.data.tags.length} />}
      </Section>
      <Section title="Segments">
        <ErrorNote error={segments.error} />
        <table>
          <caption class="sr-only">Segments</caption>
          <thead>
            <tr>
              <th scope="col">Segment</th>
              <th scope="col">Groups</th>
              <th scope="col" class="num">Members</th>
            </tr>
          </thead>
          <tbody>
            {(segments.data?.segments ?? []).map((s) => (
              <tr key={s.id}>
                <th scope="row">{s.name}</th>
                <td>{s.person_type === 'user' ? 'users and leads' : 'companies'}</td>
                <td class="num">{s.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {segments.data && <Pager pages={segmentPages} label="Segments" next={segments.data.next_offset} total={segments.data.total} shown={segments.data.segments.length} />}
      </Section>
    </div>
  );
}
