// Edges of the markup scan that the main html-text tests do not reach: which '<' opens a tag,
// attribute syntax around '/', valueless and unterminated attributes, the end of script text,
// and how links, cells and <pre> text meet.
import { describe, it, expect } from 'vitest';
import { htmlToPlainText } from '../../src/core/html-text.js';

describe('htmlToPlainText: what opens a tag', () => {
  it('strips tags whose names start at either end of the ASCII letters', () => {
    expect(htmlToPlainText('a<Z>b<z>c<A>d<a>e')).toBe('abcde');
  });

  it('keeps < before a character just outside the letters as text', () => {
    expect(htmlToPlainText('a<@>b<[>c<`>d<{>e')).toBe('a<@>b<[>c<`>d<{>e');
  });

  it('keeps < before a digit or a space as text even with a > later', () => {
    expect(htmlToPlainText('x <3 y> z')).toBe('x <3 y> z');
    expect(htmlToPlainText('a < b > c')).toBe('a < b > c');
    expect(htmlToPlainText('a <3b> c')).toBe('a <3b> c');
  });

  it('keeps </ before a non-letter as text', () => {
    expect(htmlToPlainText('x </3> y')).toBe('x </3> y');
  });
});

describe('htmlToPlainText: attribute syntax', () => {
  it('skips a / between the tag name or an attribute and the next attribute', () => {
    expect(htmlToPlainText('<img/alt="cat">')).toBe('cat');
    expect(htmlToPlainText('<a x/href="u">link</a>')).toBe('link (u)');
  });

  it('reads an attribute without a value as empty', () => {
    expect(htmlToPlainText('a<img alt>b')).toBe('ab');
    expect(htmlToPlainText('<a href>x</a>')).toBe('x');
  });

  it('resumes after the closing quote of a value that ends in >', () => {
    expect(htmlToPlainText('<img alt="x>">')).toBe('x>');
  });

  it('keeps a tag cut off inside an unquoted value as text', () => {
    expect(htmlToPlainText('see <a href=x')).toBe('see <a href=x');
  });

  it('trims the href', () => {
    expect(htmlToPlainText('<a href=" http://x ">go</a>')).toBe('go (http://x)');
  });

  it('ignores attributes on end tags', () => {
    expect(htmlToPlainText('<a href="u">x</a href="v">y')).toBe('x (u)y');
    expect(htmlToPlainText('</img alt="x">y')).toBe('y');
  });

  it('treats a form feed as whitespace', () => {
    expect(htmlToPlainText('a\f\fb')).toBe('a b');
  });
});

describe('htmlToPlainText: end of script text', () => {
  it('does not end a script at another end tag of the same length', () => {
    expect(htmlToPlainText('<script>x</abcdef>hidden</script>y')).toBe('y');
  });

  it('ends a script at </script/>', () => {
    expect(htmlToPlainText('<script>x</script/>y')).toBe('y');
  });

  it('drops a script whose end tag is cut off', () => {
    expect(htmlToPlainText('a<script>x</script')).toBe('a');
    expect(htmlToPlainText('a<script>x</script foo')).toBe('a');
  });
});

describe('htmlToPlainText: line breaks in text', () => {
  it('counts each lone \\r as a newline', () => {
    expect(htmlToPlainText('a\r\rb')).toBe('a\n\nb');
  });

  it('reads a newline at the start of a text run as a space', () => {
    expect(htmlToPlainText('<b>x</b>\ny')).toBe('x y');
  });

  it('reads a newline after a comment as a space', () => {
    expect(htmlToPlainText('a<!-- c -->\nb')).toBe('a b');
    expect(htmlToPlainText('<pre>a<!--c-->\nb</pre>')).toBe('a\nb');
  });
});

describe('htmlToPlainText: pre edges', () => {
  it('turns lone \\r and \\r\\n into one line break', () => {
    expect(htmlToPlainText('<pre>a\rb</pre>')).toBe('a\nb');
    expect(htmlToPlainText('<pre>a\r\nb</pre>')).toBe('a\nb');
  });

  it('ignores a lone \\r directly after <pre>', () => {
    expect(htmlToPlainText('a<pre>\rx</pre>')).toBe('a\nx');
  });

  it('turns no-break spaces into spaces', () => {
    expect(htmlToPlainText('<pre>a\u00a0b</pre>')).toBe('a b');
    expect(htmlToPlainText('<pre>a&nbsp;&nbsp;b</pre>')).toBe('a  b');
  });

  it('joins image alt text to pre text without a space', () => {
    expect(htmlToPlainText('<pre>a<img alt="b"></pre>')).toBe('ab');
  });

  it('keeps the space of a cell in pre across an empty text run', () => {
    expect(htmlToPlainText('<pre>a<td><img alt="b"></pre>')).toBe('a b');
  });
});

describe('htmlToPlainText: link labels', () => {
  it('puts pre text inside a link into its label', () => {
    expect(htmlToPlainText('<a href="u"><pre>x</pre></a>')).toBe('x (u)');
  });

  it('separates cells inside a label', () => {
    expect(htmlToPlainText('<a href="u">x<td>y</a>')).toBe('x y (u)');
  });

  it('collapses no-break spaces inside a label', () => {
    expect(htmlToPlainText('<a href="u">a&nbsp;b</a>')).toBe('a b (u)');
    expect(htmlToPlainText('<a href="u">a &nbsp;\u00a0b&nbsp;</a>')).toBe('a b (u)');
  });
});
