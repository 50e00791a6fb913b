// JSON.stringify's text in pieces, so a state of hundreds of megabytes is written without one
// string holding it (V8 caps a string at about 512 M characters) and a writer can let other
// requests run between pieces. Arrays within the top levels of objects are written item by item;
// everything else is JSON.stringify's own text, so the pieces joined are exactly its output.

/** How deep objects are opened member by member; below that a value is one JSON.stringify. */
const OPEN_DEPTH = 3;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
const isSkipped = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';

function* pieces(value: unknown, depth: number): Generator<string> {
  if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (i > 0) yield ',';
      // An item (a record) is one piece: records are small, the arrays of them are what is big.
      yield isSkipped(item) ? 'null' : JSON.stringify(item);
    }
    yield ']';
    return;
  }
  if (isPlainObject(value) && depth < OPEN_DEPTH) {
    yield '{';
    let first = true;
    for (const key of Object.keys(value)) {
      const member = value[key];
      if (isSkipped(member)) continue;
      yield `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      yield* pieces(member, depth + 1);
    }
    yield '}';
    return;
  }
  yield JSON.stringify(value);
}

/** `JSON.stringify(value)` in pieces of at least `size` characters (the last may be shorter). */
export function* jsonChunks(value: unknown, size = 256 * 1024): Generator<string> {
  let buffer = '';
  for (const piece of pieces(value, 0)) {
    buffer += piece;
    if (buffer.length >= size) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer !== '') yield buffer;
}
