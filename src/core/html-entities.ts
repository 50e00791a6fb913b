// Character references (&amp;, &#233;, &eacute;) and the character classes the HTML scan reads
// (html-text.ts): the named set conversation bodies use, and the HTML 4 Latin-1 set.

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'",
  hellip: '\u2026', mdash: '\u2014', ndash: '\u2013',
  lsquo: '\u2018', rsquo: '\u2019', sbquo: '\u201a', ldquo: '\u201c', rdquo: '\u201d', bdquo: '\u201e',
  euro: '\u20ac', trade: '\u2122', bull: '\u2022', dagger: '\u2020', Dagger: '\u2021', permil: '\u2030',
  lsaquo: '\u2039', rsaquo: '\u203a', thinsp: '\u2009', ensp: '\u2002', emsp: '\u2003',
  zwnj: '\u200c', zwj: '\u200d', lrm: '\u200e', rlm: '\u200f', minus: '\u2212', larr: '\u2190',
  rarr: '\u2192', uarr: '\u2191', darr: '\u2193', hearts: '\u2665', check: '\u2713',
};

// The HTML 4 Latin-1 set, in code point order from U+00A0, so accented
// letters typed in European languages survive without a 96-line table.
const LATIN1 = (
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr ' +
  'deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest ' +
  'Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ' +
  'ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig ' +
  'agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml ' +
  'eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml'
).split(' ');
LATIN1.forEach((name, i) => {
  NAMED[name] = String.fromCharCode(0xa0 + i);
});

/**
 * Decodes character references. Unknown names are kept verbatim because
 * "AT&T;"-style text is far more common in messages than exotic entities.
 */
export function decodeEntities(s: string): string {
  let amp = s.indexOf('&');
  if (amp === -1) return s;
  let out = '';
  let last = 0;
  while (amp !== -1) {
    const r = readEntity(s, amp);
    if (r !== null) {
      out += s.slice(last, amp) + r.text;
      last = r.end;
    }
    amp = s.indexOf('&', r !== null ? r.end : amp + 1);
  }
  return out + s.slice(last);
}

function readEntity(s: string, amp: number): { text: string; end: number } | null {
  let i = amp + 1;
  if (s.charCodeAt(i) === 35 /* # */) {
    i++;
    const hex = s[i] === 'x' || s[i] === 'X';
    if (hex) i++;
    const start = i;
    let cp = 0;
    for (; i < s.length; i++) {
      const d = hex ? hexDigit(s.charCodeAt(i)) : decDigit(s.charCodeAt(i));
      if (d < 0) break;
      // Saturate instead of growing without bound on "&#99999999999...".
      if (cp <= 0x10ffff) cp = cp * (hex ? 16 : 10) + d;
    }
    if (i === start) return null;
    // The semicolon is optional for numeric references, as in browsers.
    if (s[i] === ';') i++;
    const valid = cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
    return { text: valid ? String.fromCodePoint(cp) : '\ufffd', end: i };
  }
  const start = i;
  // Longest known name is 6 chars; 32 is a generous cap for the scan.
  while (i < s.length && i - start < 32 && isAlnum(s.charCodeAt(i))) i++;
  if (i === start || s[i] !== ';') return null;
  const name = s.slice(start, i);
  const text = Object.prototype.hasOwnProperty.call(NAMED, name) ? NAMED[name] : undefined;
  if (text === undefined) return null;
  return { text, end: i + 1 };
}

function decDigit(c: number): number {
  return c >= 48 && c <= 57 ? c - 48 : -1;
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

export function isAsciiAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

// HTML's own whitespace set; U+00A0 is handled separately (see below).
export function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
}
