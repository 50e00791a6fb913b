// `messaging-api-mock import --from URL --token T --out FILE [--anonymize] [--key K]
// [--app-id ID] [--app-token T]`: a workspace read through the v1 API itself, written as a fixture
// file that --fixtures DIR loads. The one command that contacts a host, and only the one named.

import { randomBytes } from 'node:crypto';
import { parseFixture } from '../fixtures/validate.js';
import { FixtureError } from '../fixtures/fixture-doc.js';
import { Store } from '../state/store.js';
import { Clock } from '../core/clock.js';
import { writeWhole } from '../write-whole.js';
import { Anonymizer } from './anonymize.js';
import { forgetPartial, readWorkspace } from './read.js';
import { toFixture } from './to-fixture.js';
import { ImportError, Upstream } from './upstream.js';

export const IMPORT_USAGE = `Usage: messaging-api-mock import --from URL --token T --out FILE [options]

Reads a workspace through the v1 API (Intercom-Version: 1.4) and writes a fixture file that
--fixtures DIR loads. The token never goes into the file.

  --from URL       the API's base URL (IMPORT_FROM)
  --token T        an access token of the workspace (IMPORT_TOKEN)
  --out FILE       the fixture file to write (replaced if it exists); FILE.partial keeps finished
                   phases, so a run that stops resumes where it stopped
  --app-id ID      the app's id in the file (default imported)
  --app-token T    the token the imported app answers to (default: a new one, printed)
  --anonymize      replace names, emails, phones, IPs, user_ids, company, tag and segment names,
                   avatar URLs, custom attribute text and message and note bodies
  --key K          the key of --anonymize (IMPORT_KEY; default: a new one, printed): the same key
                   gives the same file
`;

interface ImportArgs {
  from: string;
  token: string;
  out: string;
  appId: string;
  appToken: string | undefined;
  anonymize: boolean;
  key: string | undefined;
}

function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ImportArgs | 'help' {
  const values: Record<string, string | undefined> = { '--from': env.IMPORT_FROM, '--token': env.IMPORT_TOKEN, '--key': env.IMPORT_KEY };
  let anonymize = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--anonymize') {
      anonymize = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (!['--from', '--token', '--out', '--app-id', '--app-token', '--key'].includes(flag)) throw new ImportError(`unknown option "${arg}" (see import --help)`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') throw new ImportError(`${flag} needs a value`);
    values[flag] = value;
  }
  const need = (flag: string, name?: string) => {
    const v = values[flag];
    if (v === undefined || v === '') throw new ImportError(`${flag} is required${name ? ` (or ${name})` : ''}`);
    return v;
  };
  const from = need('--from', 'IMPORT_FROM');
  if (!/^https?:\/\/[^/]/.test(from)) throw new ImportError(`--from must be an http(s) URL, not "${from.slice(0, 100)}"`);
  const appId = values['--app-id'] ?? 'imported';
  if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(appId)) throw new ImportError('--app-id must be lower-case letters, digits, _ and - (at most 64)');
  return { from, token: need('--token', 'IMPORT_TOKEN'), out: need('--out'), appId, appToken: values['--app-token'], anonymize, key: values['--key'] };
}

/** Runs the command; answers the exit status (0 written, 1 the upstream failed, 2 bad usage). */
export async function runImport(argv: readonly string[], env: NodeJS.ProcessEnv, write: (line: string) => void, complain: (line: string) => void): Promise<number> {
  let args: ImportArgs | 'help';
  try {
    args = parseArgs(argv, env);
  } catch (err) {
    complain(`import: ${(err as Error).message}`);
    return 2;
  }
  if (args === 'help') {
    write(IMPORT_USAGE.trimEnd());
    return 0;
  }
  const say = (line: string) => write(`import: ${line}`);
  const up = new Upstream({ from: args.from, token: args.token, say });
  // Not *.json: a fixture directory loads every *.json file in it.
  const partialFile = `${args.out}.partial`;
  try {
    say(`reading ${up.base} (Intercom-Version: 1.4); visitors are not read: the v1 API lists none`);
    const read = await readWorkspace(up, args.token, partialFile, say);
    const appToken = args.appToken ?? `imported_${randomBytes(12).toString('hex')}`;
    let doc = toFixture(read, args.appId, appToken);
    if (args.anonymize) {
      const key = args.key ?? randomBytes(16).toString('hex');
      if (args.key === undefined) say(`anonymized with the new key ${key} (give it as --key or IMPORT_KEY to make the same file again)`);
      doc = new Anonymizer(key).apply(doc);
    }
    // The file must load: checked as --fixtures will check it (schema, then every reference as
    // the store builds the app), before it is written.
    const input = parseFixture(JSON.parse(JSON.stringify(doc)));
    new Store({ seed: 1, clock: new Clock(), fixtures: [{ input }] });
    writeWhole(args.out, `${JSON.stringify(doc, null, 2)}\n`);
    forgetPartial(partialFile);
    say(`wrote ${args.out}: app "${args.appId}", ${read.users.length} users, ${read.leads.length} leads, ${read.companies.length} companies, ${read.conversations.length} conversations, ${read.notes.length} notes, ${read.events.length} events (${up.requests} requests)`);
    if (args.appToken === undefined) say(`the app answers to the token ${appToken} (choose one with --app-token)`);
    return 0;
  } catch (err) {
    if (err instanceof ImportError) complain(`import: ${err.message}`);
    else if (err instanceof FixtureError) complain(`import: what was read does not make a valid fixture: ${err.message}`);
    else throw err;
    return 1;
  }
}
