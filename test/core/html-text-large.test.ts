// The 1 MB adversarial inputs of htmlToPlainText, apart from the behaviour tests of html-text.test.ts:
// each takes about a second (more when instrumented), so a mutation run of src/core/html-text.ts
// narrows to html-text.test.ts (MUTATE_TESTS) instead of running these for every mutant. npm test
// runs both files.

import { describe, it, expect } from 'vitest';
import { htmlToPlainText } from '../../src/core/html-text.js';

const MB = 1 << 20;
const repeatTo = (unit: string, size = MB): string => unit.repeat(Math.ceil(size / unit.length));

describe('htmlToPlainText: large adversarial input', () => {
  it('handles 1 MB of nested divs', () => {
    const html = repeatTo('<div>') + 'deep' + repeatTo('</div>');
    expect(html.length).toBeGreaterThan(2 * MB);
    expect(htmlToPlainText(html)).toBe('deep');
  });

  it('handles 1 MB of nested inline tags and links', () => {
    expect(htmlToPlainText(repeatTo('<b><i>') + 'x')).toBe('x');
    // Each <a> implicitly closes the previous, empty-labelled one.
    expect(htmlToPlainText(repeatTo('<a href="u">'))).toBe('u'.repeat(Math.ceil(MB / 12)));
  });

  it('handles 1 MB of stray < characters', () => {
    expect(htmlToPlainText(repeatTo('<'))).toBe('<'.repeat(MB));
    expect(htmlToPlainText(repeatTo('< '))).toBe(repeatTo('< ').trim());
  });

  it('handles 1 MB of unterminated tag starts', () => {
    const s = repeatTo('<a ');
    expect(htmlToPlainText(s)).toBe(s.trim());
  });

  it('handles an unterminated quoted attribute of 1 MB', () => {
    const s = '<a href="' + repeatTo('x');
    expect(htmlToPlainText(s)).toBe(s);
  });

  it('handles 1 MB of attributes', () => {
    expect(htmlToPlainText('<p ' + repeatTo('x=1 ') + '>ok</p>')).toBe('ok');
    expect(htmlToPlainText('<p ' + repeatTo('t=">" ') + '>ok</p>')).toBe('ok');
  });

  it('handles 1 MB of unclosed comment and bogus comment openers', () => {
    expect(htmlToPlainText('a' + repeatTo('<!--'))).toBe('a');
    expect(htmlToPlainText('a' + repeatTo('<!'))).toBe('a');
  });

  it('handles 1 MB inside an unclosed script', () => {
    expect(htmlToPlainText('a<script>' + repeatTo('</scrip'))).toBe('a');
    expect(htmlToPlainText('a' + repeatTo('<script></'))).toBe('a');
  });

  it('handles 1 MB of ampersands and partial entities', () => {
    expect(htmlToPlainText(repeatTo('&'))).toBe('&'.repeat(MB));
    expect(htmlToPlainText(repeatTo('&abc'))).toBe(repeatTo('&abc'));
    expect(htmlToPlainText(repeatTo('&#65'))).toBe('A'.repeat(MB / 4));
  });

  it('handles 1 MB of <br> and whitespace', () => {
    expect(htmlToPlainText('a' + repeatTo('<br>') + 'b')).toBe('a\n\nb');
    expect(htmlToPlainText('a' + repeatTo(' \t\n') + 'b')).toBe('a\n\nb');
    expect(htmlToPlainText('a' + repeatTo(' \t') + 'b')).toBe('a b');
  });

  it('handles 1 MB of mixed markup', () => {
    const unit = '<p class="x>y">&amp;<b>t</b></p>';
    const out = htmlToPlainText(repeatTo(unit));
    expect(out).toBe(Array.from({ length: Math.ceil(MB / unit.length) }, () => '&t').join('\n'));
  });
});
