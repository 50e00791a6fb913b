/**
 * HTML -> plain text for conversation bodies (`display_as=plaintext`).
 *
 * Bodies come from API clients and are routinely malformed, so this is a
 * single forward scan with no regex over markup and no element stack: every
 * input character is examined a bounded number of times, which keeps the cost
 * linear whatever the nesting or the garbage.
 */

import { decodeEntities, isSpace, isAsciiAlpha } from './html-entities.js';
const BLOCK = new Set([
  'p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'ul', 'ol', 'blockquote', 'pre', 'tr', 'table',
  'section', 'article', 'header', 'footer',
  // Not in the minimal list but rendered as blocks by every browser; leaving
  // them out would glue unrelated lines together.
  'dl', 'dt', 'dd', 'hr', 'nav', 'aside', 'main', 'figure', 'figcaption', 'address', 'form', 'fieldset',
  'details', 'summary', 'thead', 'tbody', 'tfoot', 'caption',
]);

// Table cells sit on one line but must not run their texts together.
const CELL = new Set(['td', 'th']);

// Elements whose content is not text for a reader.
const RAW_DROP = new Set(['script', 'style']);


interface Tag {
  name: string;
  end: boolean;
  attrs: Map<string, string>;
  next: number;
}

/**
 * Parses the tag starting at `lt` (which is '<' followed by a letter, or
 * '</' followed by a letter). Returns null when the input ends before the
 * tag does. Quotes only count at the start of an attribute value, as in the
 * HTML tokenizer, so a stray quote elsewhere cannot swallow the document.
 */
function parseTag(s: string, lt: number): Tag | null {
  const n = s.length;
  let i = lt + 1;
  const end = s.charCodeAt(i) === 47; /* / */
  if (end) i++;
  const nameStart = i;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (isSpace(c) || c === 47 || c === 62) break;
    i++;
  }
  const name = s.slice(nameStart, i).toLowerCase();
  const attrs = new Map<string, string>();
  for (;;) {
    while (i < n && (isSpace(s.charCodeAt(i)) || s.charCodeAt(i) === 47)) i++;
    if (i >= n) return null;
    if (s.charCodeAt(i) === 62 /* > */) return { name, end, attrs, next: i + 1 };
    const attrStart = i;
    // The first character is consumed unconditionally (it may be '='), which
    // also guarantees progress on every iteration.
    i++;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (isSpace(c) || c === 47 || c === 62 || c === 61) break;
      i++;
    }
    const attrName = s.slice(attrStart, i).toLowerCase();
    while (i < n && isSpace(s.charCodeAt(i))) i++;
    let value = '';
    if (s.charCodeAt(i) === 61 /* = */) {
      i++;
      while (i < n && isSpace(s.charCodeAt(i))) i++;
      if (i >= n) return null;
      const q = s.charCodeAt(i);
      if (q === 34 || q === 39) {
        const close = s.indexOf(q === 34 ? '"' : "'", i + 1);
        if (close === -1) return null;
        value = s.slice(i + 1, close);
        i = close + 1;
      } else {
        const vStart = i;
        while (i < n && !isSpace(s.charCodeAt(i)) && s.charCodeAt(i) !== 62) i++;
        value = s.slice(vStart, i);
      }
    }
    // First occurrence wins, as in browsers.
    if (!attrs.has(attrName)) attrs.set(attrName, value);
  }
}

/** Index just past the closing tag of a script/style element, or s.length. */
function skipRawText(s: string, from: number, name: string): number {
  let i = s.indexOf('</', from);
  while (i !== -1) {
    const after = i + 2 + name.length;
    if (s.slice(i + 2, after).toLowerCase() === name) {
      const c = s.charCodeAt(after);
      if (after >= s.length || isSpace(c) || c === 47 || c === 62) {
        const tag = parseTag(s, i);
        return tag === null ? s.length : tag.next;
      }
    }
    i = s.indexOf('</', i + 2);
  }
  return s.length;
}

/** Accumulates output lines; the only place where whitespace is decided. */
class TextSink {
  private readonly lines: string[] = [];
  private cur = '';
  // Stryker disable next-line BooleanLiteral: equivalent, pendingSpace is read only when cur is non-empty, and every write that fills cur (word, preText) resets it first
  private pendingSpace = false;
  // Link label being collected; null when not inside <a href>.
  private label: string[] | null = null;
  // Stryker disable next-line StringLiteral: equivalent, href is read only while a label is open, and openLink sets both
  private href = '';

  /** Inline text with collapsible whitespace (already entity-decoded). */
  text(t: string): void {
    if (this.label !== null) {
      this.label.push(t);
      return;
    }
    const n = t.length;
    let i = 0;
    while (i < n) {
      const c = t.charCodeAt(i);
      if (isSpace(c) || c === 0xa0) {
        const wsStart = i;
        let newlines = 0;
        while (i < n) {
          const d = t.charCodeAt(i);
          if (d === 10) newlines++;
          else if (d === 13) {
            // \r\n counts once; a lone \r is an old-Mac newline.
            if (t.charCodeAt(i + 1) !== 10) newlines++;
          } else if (!(isSpace(d) || d === 0xa0)) break;
          i++;
        }
        // Whitespace touching the edge of a text run is markup indentation
        // (it sits next to a tag) and reads as a space; newlines inside a run
        // are the author's own line breaks and are kept, so plain text that
        // never contained markup comes back with its lines intact.
        const atEdge = wsStart === 0 || i === n;
        if (atEdge || newlines === 0) {
          this.pendingSpace = true;
        } else {
          this.softBreak();
          if (newlines > 1) this.lines.push('');
        }
      } else {
        const wStart = i;
        while (i < n) {
          const d = t.charCodeAt(i);
          if (isSpace(d) || d === 0xa0) break;
          i++;
        }
        this.word(t.slice(wStart, i));
      }
    }
  }

  /** Text inside <pre>: kept verbatim, newlines become line breaks. */
  preText(t: string): void {
    if (this.label !== null) {
      this.label.push(t);
      return;
    }
    const parts = t.replace(/\r\n?/g, '\n').replace(/\u00a0/g, ' ').split('\n');
    parts.forEach((p, idx) => {
      if (idx > 0) this.hardBreak();
      this.cur += p;
    });
    this.pendingSpace = false;
  }

  space(): void {
    if (this.label !== null) this.label.push(' ');
    else this.pendingSpace = true;
  }

  /** Line boundary that never creates an empty line (blocks). */
  softBreak(): void {
    if (this.label !== null) {
      this.label.push(' ');
      return;
    }
    if (this.cur !== '') this.lines.push(this.cur);
    this.cur = '';
    // Stryker disable next-line BooleanLiteral: equivalent, cur is empty after a break and pendingSpace is read only when cur is non-empty (see pendingSpace)
    this.pendingSpace = false;
  }

  /** Unconditional line break (<br>). */
  hardBreak(): void {
    if (this.label !== null) {
      this.label.push(' ');
      return;
    }
    this.lines.push(this.cur);
    this.cur = '';
    // Stryker disable next-line BooleanLiteral: equivalent, as in softBreak: cur is empty here
    this.pendingSpace = false;
  }

  openLink(href: string): void {
    this.closeLink();
    this.label = [];
    this.href = href;
  }

  closeLink(): void {
    if (this.label === null) return;
    const label = collapse(this.label.join(''));
    this.label = null;
    const href = this.href;
    this.text(label === '' || label === href ? href : `${label} (${href})`);
  }

  finish(): string {
    this.closeLink();
    if (this.cur !== '') this.lines.push(this.cur);
    const out: string[] = [];
    // Stryker disable next-line BooleanLiteral: equivalent, a leading blank line becomes a leading newline that the final trim() drops
    let prevBlank = true; // also drops leading blank lines
    for (const line of this.lines) {
      const blank = line.trim() === '';
      if (blank && prevBlank) continue;
      out.push(blank ? '' : line);
      prevBlank = blank;
    }
    return out.join('\n').trim();
  }

  private word(w: string): void {
    if (this.pendingSpace && this.cur !== '') this.cur += ' ';
    this.cur += w;
    this.pendingSpace = false;
  }
}

function collapse(s: string): string {
  let out = '';
  // Stryker disable next-line BooleanLiteral: equivalent, pending is read only once out is non-empty, and the first word sets it back
  let pending = false;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (isSpace(c) || c === 0xa0) {
      pending = true;
      i++;
      continue;
    }
    const start = i;
    while (i < s.length) {
      const d = s.charCodeAt(i);
      if (isSpace(d) || d === 0xa0) break;
      i++;
    }
    if (pending && out !== '') out += ' ';
    out += s.slice(start, i);
    // Stryker disable next-line BooleanLiteral: equivalent, a word ends only at whitespace (which sets pending) or at the end
    pending = false;
  }
  return out;
}

export function htmlToPlainText(html: string): string {
  const s = typeof html === 'string' ? html : String(html ?? '');
  const n = s.length;
  const sink = new TextSink();
  let preDepth = 0;
  // Browsers ignore a newline directly after <pre>; authors put it there
  // only to make the source readable.
  // Stryker disable next-line BooleanLiteral: equivalent, until a tag or comment clears it, text starts at index 0, where a leading newline is edge whitespace before any word and prints nothing
  let skipPreNewline = false;
  let i = 0;

  const emitText = (raw: string): void => {
    if (raw === '') return;
    let t = raw;
    if (skipPreNewline) {
      if (t.startsWith('\r\n')) t = t.slice(2);
      else if (t.startsWith('\n') || t.startsWith('\r')) t = t.slice(1);
      // Stryker disable next-line BooleanLiteral: equivalent, text runs are split only by tags and comments, which clear the flag themselves
      skipPreNewline = false;
    }
    const decoded = decodeEntities(t);
    if (preDepth > 0) sink.preText(decoded);
    else sink.text(decoded);
  };

  // Text runs extend over stray '<' characters, so "I\n<3 you" stays one
  // run and its newline keeps the meaning it has in plain text.
  let textStart = 0;
  for (;;) {
    const lt = s.indexOf('<', i);
    if (lt === -1) {
      emitText(s.slice(textStart));
      break;
    }
    const c1 = s.charCodeAt(lt + 1);
    if (c1 === 33 /* ! */ || c1 === 63 /* ? */) {
      emitText(s.slice(textStart, lt));
      skipPreNewline = false;
      let close: number;
      if (s.startsWith('<!--', lt)) {
        // Searching from lt+2 lets "<!-->" and "<!--->" close themselves,
        // matching the HTML tokenizer.
        // Stryker disable next-line ArithmeticOperator: equivalent, '-->' cannot start at lt-2..lt+1 because s[lt] is '<' and s[lt+1] is '!'
        close = s.indexOf('-->', lt + 2);
        i = close === -1 ? n : close + 3;
      } else {
        // Doctype, CDATA, processing instructions: bogus comments ending at
        // the first '>'.
        close = s.indexOf('>', lt + 2);
        i = close === -1 ? n : close + 1;
      }
      textStart = i;
      continue;
    }
    const isTagStart = isAsciiAlpha(c1) || (c1 === 47 && isAsciiAlpha(s.charCodeAt(lt + 2)));
    if (!isTagStart) {
      // A '<' that cannot open a tag ("a < b", "<3") is just text.
      i = lt + 1;
      continue;
    }
    const tag = parseTag(s, lt);
    if (tag === null) {
      // Unterminated tag at the end of input: browsers would drop it, but
      // for a chat message showing "if x<y then" beats losing the text.
      // Emitting the whole rest at once keeps this linear.
      emitText(s.slice(textStart));
      break;
    }
    emitText(s.slice(textStart, lt));
    i = tag.next;
    textStart = i;
    skipPreNewline = false;
    const name = tag.name;

    if (!tag.end && RAW_DROP.has(name)) {
      i = skipRawText(s, i, name);
      textStart = i;
      continue;
    }
    if (name === 'br') {
      // "</br>" is treated as <br> by browsers too.
      sink.hardBreak();
      continue;
    }
    if (name === 'a') {
      if (tag.end) {
        sink.closeLink();
      } else {
        const href = decodeEntities(tag.attrs.get('href') ?? '').trim();
        if (href !== '') sink.openLink(href);
        else sink.closeLink(); // a new <a> implicitly ends the previous one
      }
      continue;
    }
    if (name === 'img') {
      // An empty or missing alt adds nothing: text('') is a no-op.
      if (!tag.end) sink.text(decodeEntities(tag.attrs.get('alt') ?? ''));
      continue;
    }
    if (CELL.has(name)) {
      sink.space();
      continue;
    }
    if (BLOCK.has(name)) {
      sink.softBreak();
      if (name === 'pre') {
        if (tag.end) preDepth = Math.max(0, preDepth - 1);
        else {
          preDepth++;
          skipPreNewline = true;
        }
      }
      continue;
    }
    // Any other tag is stripped; its content flows on as text.
  }

  return sink.finish();
}
