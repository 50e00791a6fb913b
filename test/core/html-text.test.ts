import { describe, it, expect } from 'vitest';
import { decodeEntities } from '../../src/core/html-entities.js';
import { htmlToPlainText } from '../../src/core/html-text.js';

describe('htmlToPlainText: plain text', () => {
  it('returns text without markup unchanged', () => {
    expect(htmlToPlainText('Hello, world!')).toBe('Hello, world!');
    expect(htmlToPlainText('Price: 5 > 3, a < b')).toBe('Price: 5 > 3, a < b');
  });

  it('trims surrounding whitespace', () => {
    expect(htmlToPlainText('  \n\t Hello \n ')).toBe('Hello');
  });

  it('keeps the line breaks of plain text', () => {
    expect(htmlToPlainText('Line one\nLine two')).toBe('Line one\nLine two');
    expect(htmlToPlainText('Line one\r\nLine two\rLine three')).toBe('Line one\nLine two\nLine three');
    expect(htmlToPlainText('Para one\n\nPara two')).toBe('Para one\n\nPara two');
  });

  it('returns an empty string for empty or whitespace-only input', () => {
    expect(htmlToPlainText('')).toBe('');
    expect(htmlToPlainText(' \n\t ')).toBe('');
    expect(htmlToPlainText('<p></p><div> </div>')).toBe('');
  });
});

describe('htmlToPlainText: whitespace', () => {
  it('collapses runs of spaces and tabs to one space', () => {
    expect(htmlToPlainText('<p>a   b\t\tc \t d</p>')).toBe('a b c d');
  });

  it('collapses whitespace across tag boundaries', () => {
    expect(htmlToPlainText('<b>a </b> <i> b</i>')).toBe('a b');
  });

  it('does not insert spaces for inline tags', () => {
    expect(htmlToPlainText('<b>bo</b>ld and <em>ita</em><i>lic</i>')).toBe('bold and italic');
  });

  it('treats indentation newlines of pretty-printed markup as spaces', () => {
    expect(htmlToPlainText('<div>\n  <p>\n    a\n  </p>\n  <p>b</p>\n</div>')).toBe('a\nb');
    expect(htmlToPlainText('<p>Hello\n  <b>World</b></p>')).toBe('Hello World');
  });

  it('trims spaces at the start and end of every line', () => {
    expect(htmlToPlainText('<p>  a  </p><p>   b </p>')).toBe('a\nb');
    expect(htmlToPlainText('a <br> b')).toBe('a\nb');
  });

  it('never produces more than one blank line', () => {
    expect(htmlToPlainText('a<br><br><br><br><br>b')).toBe('a\n\nb');
    expect(htmlToPlainText('a\n\n\n\n\nb')).toBe('a\n\nb');
    expect(htmlToPlainText('<p>a</p><p><br></p><p><br></p><p><br></p><p>b</p>')).toBe('a\n\nb');
  });

  it('drops leading and trailing blank lines', () => {
    expect(htmlToPlainText('<br><br><p>a</p><br><br>')).toBe('a');
  });

  it('treats &nbsp; and U+00A0 as ordinary collapsible spaces', () => {
    expect(htmlToPlainText('a&nbsp;b')).toBe('a b');
    expect(htmlToPlainText('a&nbsp;&nbsp; &nbsp;b')).toBe('a b');
    expect(htmlToPlainText('a\u00a0\u00a0b')).toBe('a b');
    expect(htmlToPlainText('<p>&nbsp;</p><p>x&nbsp;</p>')).toBe('x');
  });
});

describe('htmlToPlainText: blocks and line breaks', () => {
  it('separates consecutive paragraphs with a single newline', () => {
    expect(htmlToPlainText('<p>Hello</p><p>World</p>')).toBe('Hello\nWorld');
    expect(htmlToPlainText('<p>One</p>\n\n<p>Two</p>\n<p>Three</p>')).toBe('One\nTwo\nThree');
  });

  it.each([
    'p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'ul', 'ol', 'blockquote', 'pre', 'tr', 'table',
    'section', 'article', 'header', 'footer',
  ])('<%s> is a line boundary', (tag) => {
    expect(htmlToPlainText(`before<${tag}>inside</${tag}>after`)).toBe('before\ninside\nafter');
    expect(htmlToPlainText(`before<${tag.toUpperCase()} class="x">inside</${tag.toUpperCase()}>after`)).toBe(
      'before\ninside\nafter',
    );
  });

  it('renders lists one item per line', () => {
    expect(htmlToPlainText('<p>Todo:</p><ul><li>one</li><li>two</li></ul><ol><li>three</li></ol>')).toBe(
      'Todo:\none\ntwo\nthree',
    );
  });

  it('collapses nested block boundaries into one newline', () => {
    expect(htmlToPlainText('<div><div><p>a</p></div></div><div><section><p>b</p></section></div>')).toBe('a\nb');
  });

  it('renders headings and blockquotes', () => {
    expect(htmlToPlainText('<h1>Title</h1>Intro<blockquote><p>Quoted</p></blockquote>Reply')).toBe(
      'Title\nIntro\nQuoted\nReply',
    );
  });

  it('puts table rows on lines and separates cells', () => {
    expect(htmlToPlainText('<table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table>')).toBe(
      'k v\na 1',
    );
  });

  it.each(['<br>', '<br/>', '<br />', '<BR>', '<Br/>', '<bR  />', '<br clear="all">', '</br>'])(
    '%s is a newline',
    (br) => {
      expect(htmlToPlainText(`a${br}b`)).toBe('a\nb');
    },
  );

  it('makes <br> inside a paragraph a line break', () => {
    expect(htmlToPlainText('<p>Line 1<br>Line 2</p><p>Line 3</p>')).toBe('Line 1\nLine 2\nLine 3');
  });

  it('does not add a blank line for a trailing <br> in a paragraph', () => {
    expect(htmlToPlainText('<p>a<br></p><p>b</p>')).toBe('a\nb');
  });

  it('keeps an intentionally empty paragraph as one blank line', () => {
    expect(htmlToPlainText('<p>a</p><p><br></p><p>b</p>')).toBe('a\n\nb');
  });

  it('keeps two <br>s as one blank line', () => {
    expect(htmlToPlainText('a<br><br>b')).toBe('a\n\nb');
  });

  it('treats other block-level elements as line boundaries too', () => {
    expect(htmlToPlainText('a<hr>b<dl><dt>t</dt><dd>d</dd></dl>')).toBe('a\nb\nt\nd');
  });
});

describe('htmlToPlainText: pre', () => {
  it('keeps pre content verbatim apart from tags', () => {
    expect(htmlToPlainText('<p>Code:</p><pre>if (a) {\n    b  =  1;\n\tc();\n}</pre><p>done</p>')).toBe(
      'Code:\nif (a) {\n    b  =  1;\n\tc();\n}\ndone',
    );
  });

  it('strips tags inside pre but keeps their text and spacing', () => {
    expect(htmlToPlainText('<pre><code>let  x = <b>1</b>;</code>\n  y</pre>')).toBe('let  x = 1;\n  y');
  });

  it('ignores the newline directly after <pre>', () => {
    expect(htmlToPlainText('x<pre>\n  a\n  b</pre>')).toBe('x\n  a\n  b');
    expect(htmlToPlainText('x<pre>\r\n  a</pre>')).toBe('x\n  a');
  });

  it('decodes entities inside pre', () => {
    expect(htmlToPlainText('<pre>a &lt;  b &amp;&amp; c</pre>')).toBe('a <  b && c');
  });

  it('turns <br> inside pre into a newline', () => {
    expect(htmlToPlainText('<pre>a<br>  b</pre>')).toBe('a\n  b');
  });

  it('collapses whitespace again after </pre>', () => {
    expect(htmlToPlainText('<pre>a  b</pre>c  d')).toBe('a  b\nc d');
  });

  it('handles nested and unbalanced pre', () => {
    expect(htmlToPlainText('<pre>a  <pre>b  </pre>c  </pre>d  e')).toBe('a  \nb  \nc  \nd e');
    expect(htmlToPlainText('</pre>a  b')).toBe('a b');
  });

  it('never lets pre produce more than one blank line', () => {
    expect(htmlToPlainText('<pre>a\n\n\n\nb\n   \n\t\nc</pre>')).toBe('a\n\nb\n\nc');
  });
});

describe('htmlToPlainText: links', () => {
  it('renders label and url', () => {
    expect(htmlToPlainText('<a href="https://example.com">Example</a>')).toBe('Example (https://example.com)');
  });

  it('renders just the url when the label equals it', () => {
    expect(htmlToPlainText('<a href="https://example.com">https://example.com</a>')).toBe('https://example.com');
    expect(htmlToPlainText('<a href="https://example.com"> https://example.com </a>')).toBe('https://example.com');
  });

  it('renders just the url when the label is empty', () => {
    expect(htmlToPlainText('<a href="https://example.com"></a>')).toBe('https://example.com');
    expect(htmlToPlainText('<a href="https://example.com">  </a>')).toBe('https://example.com');
    expect(htmlToPlainText('<a href="https://example.com"><img src="x.png"></a>')).toBe('https://example.com');
  });

  it('strips nested markup inside the label', () => {
    expect(htmlToPlainText('<a href="https://x.io/a"><span>Click <b><i>here</i></b></span> now</a>')).toBe(
      'Click here now (https://x.io/a)',
    );
  });

  it('uses image alt text as the label', () => {
    expect(htmlToPlainText('<a href="https://x.io"><img src="logo.png" alt="Logo"></a>')).toBe('Logo (https://x.io)');
  });

  it('keeps surrounding text', () => {
    expect(htmlToPlainText('<p>See <a href="https://docs.example.com/x">the docs</a> for more.</p>')).toBe(
      'See the docs (https://docs.example.com/x) for more.',
    );
  });

  it('decodes entities in href and label', () => {
    expect(htmlToPlainText('<a href="https://x.io/?a=1&amp;b=2">Tom &amp; Jerry</a>')).toBe(
      'Tom & Jerry (https://x.io/?a=1&b=2)',
    );
  });

  it('accepts single-quoted, unquoted and upper-case attributes', () => {
    expect(htmlToPlainText("<a class='x' href='https://a.b'>A</a>")).toBe('A (https://a.b)');
    expect(htmlToPlainText('<a href=https://a.b>A</a>')).toBe('A (https://a.b)');
    expect(htmlToPlainText('<A HREF="https://a.b" TARGET="_blank">A</A>')).toBe('A (https://a.b)');
    expect(htmlToPlainText('<a href = "https://a.b" >A</a>')).toBe('A (https://a.b)');
  });

  it('handles a > inside a quoted attribute', () => {
    expect(htmlToPlainText('<a title="a > b" href="https://a.b">A</a>')).toBe('A (https://a.b)');
  });

  it('flattens block structure inside the label to spaces', () => {
    expect(htmlToPlainText('<a href="https://a.b"><p>one</p><p>two<br>three</p></a>')).toBe('one two three (https://a.b)');
  });

  it('treats a without href as plain text', () => {
    expect(htmlToPlainText('<a name="top">Top</a> and <a href="">empty</a>')).toBe('Top and empty');
  });

  it('closes an unclosed link at the end of input', () => {
    expect(htmlToPlainText('Go <a href="https://a.b">there')).toBe('Go there (https://a.b)');
  });

  it('closes the previous link when a new one opens', () => {
    expect(htmlToPlainText('<a href="https://a.b">A<a href="https://c.d">C</a>')).toBe('A (https://a.b)C (https://c.d)');
  });

  it('ignores a stray </a>', () => {
    expect(htmlToPlainText('x</a>y')).toBe('xy');
  });

  it('uses the first href when it is repeated', () => {
    expect(htmlToPlainText('<a href="https://first" href="https://second">L</a>')).toBe('L (https://first)');
  });

  it('renders several links in one paragraph', () => {
    expect(
      htmlToPlainText('<p><a href="mailto:a@b.co">mail us</a> or <a href="https://b.co">https://b.co</a></p>'),
    ).toBe('mail us (mailto:a@b.co) or https://b.co');
  });
});

describe('htmlToPlainText: images', () => {
  it('renders the alt text', () => {
    expect(htmlToPlainText('Look: <img src="cat.png" alt="a cat">!')).toBe('Look: a cat!');
    expect(htmlToPlainText('<img alt="x" src="y"/>')).toBe('x');
  });

  it('renders nothing without alt text', () => {
    expect(htmlToPlainText('a<img src="cat.png">b')).toBe('ab');
    expect(htmlToPlainText('a <img src="cat.png" alt=""> b')).toBe('a b');
  });

  it('decodes entities in alt', () => {
    expect(htmlToPlainText('<img alt="Tom &amp; Jerry &#8212; 2&quot;">')).toBe('Tom & Jerry \u2014 2"');
  });
});

describe('htmlToPlainText: dropped content', () => {
  it('drops script and style with their content', () => {
    expect(htmlToPlainText('a<script>var x = "<p>hi</p>"; if (a < b) {}</script>b')).toBe('ab');
    expect(htmlToPlainText('a<style type="text/css">p { color: red; }</style>b')).toBe('ab');
    expect(htmlToPlainText('a<SCRIPT>x</SCRIPT >b<Style>y</sTyLe>c')).toBe('abc');
  });

  it('does not end script at a closing tag of a longer name', () => {
    expect(htmlToPlainText('a<script>x</scripts>y</script>b')).toBe('ab');
  });

  it('drops an unclosed script to the end of input', () => {
    expect(htmlToPlainText('a<script>never closed <p>text</p>')).toBe('a');
  });

  it('drops comments', () => {
    expect(htmlToPlainText('a<!-- comment -->b')).toBe('ab');
    expect(htmlToPlainText('a<!-- <p>x</p> -- -->b')).toBe('ab');
    expect(htmlToPlainText('a<!---->b<!-->c<!--->d')).toBe('abcd');
    expect(htmlToPlainText('a<!-- unterminated <p>b</p>')).toBe('a');
  });

  it('drops doctype, CDATA and processing instructions', () => {
    expect(htmlToPlainText('<!DOCTYPE html><?xml version="1.0"?><![CDATA[x]]>text')).toBe('text');
  });

  it('strips document scaffolding but keeps the body text', () => {
    expect(htmlToPlainText('<html><body><p>Hi</p></body></html>')).toBe('Hi');
  });
});

describe('htmlToPlainText: stripping other tags', () => {
  it('keeps text of nested markup at any depth', () => {
    expect(htmlToPlainText('<span><b><i><u><s><code><mark>deep</mark></code></s></u></i></b></span>')).toBe('deep');
    expect(htmlToPlainText('<p>a <span class="x">b <strong>c <em>d</em></strong></span> e</p>')).toBe('a b c d e');
  });

  it('strips unknown and custom tags', () => {
    expect(htmlToPlainText('<custom-tag data-x="1">x</custom-tag><o:p>y</o:p>')).toBe('xy');
  });

  it('strips self-closing tags', () => {
    expect(htmlToPlainText('a<span/>b<input type="text" />c')).toBe('abc');
  });
});

describe('htmlToPlainText: entities', () => {
  it.each([
    ['&amp;', '&'],
    ['&lt;', '<'],
    ['&gt;', '>'],
    ['&quot;', '"'],
    ['&apos;', "'"],
    ['&copy;', '\u00a9'],
    ['&reg;', '\u00ae'],
    ['&hellip;', '\u2026'],
    ['&mdash;', '\u2014'],
    ['&ndash;', '\u2013'],
    ['&lsquo;', '\u2018'],
    ['&rsquo;', '\u2019'],
    ['&ldquo;', '\u201c'],
    ['&rdquo;', '\u201d'],
    ['&euro;', '\u20ac'],
    ['&pound;', '\u00a3'],
    ['&eacute;', '\u00e9'],
    ['&times;', '\u00d7'],
    ['&yuml;', '\u00ff'],
    ['&iexcl;', '\u00a1'],
    ['&trade;', '\u2122'],
  ])('decodes %s', (entity, expected) => {
    expect(htmlToPlainText(`x${entity}y`)).toBe(`x${expected}y`);
  });

  it('decodes decimal and hex numeric references', () => {
    expect(htmlToPlainText('it&#39;s it&#x27;s it&#X27;s &#x1F600; &#128512; &#065;&#x41;')).toBe(
      "it's it's it's \u{1f600} \u{1f600} AA",
    );
  });

  it('accepts numeric references without the semicolon', () => {
    expect(htmlToPlainText('&#65B &#x42')).toBe('AB B');
  });

  it('replaces invalid code points with U+FFFD', () => {
    expect(htmlToPlainText('a&#0;b')).toBe('a\ufffdb');
    expect(htmlToPlainText('a&#xD800;b')).toBe('a\ufffdb');
    expect(htmlToPlainText('a&#xDFFF;b')).toBe('a\ufffdb');
    expect(htmlToPlainText('a&#x110000;b')).toBe('a\ufffdb');
    expect(htmlToPlainText('a&#1114112;b')).toBe('a\ufffdb');
    expect(htmlToPlainText('a&#99999999999999999999999999;b')).toBe('a\ufffdb');
    expect(htmlToPlainText('a&#x10FFFF;b')).toBe('a\u{10ffff}b');
  });

  it('leaves unknown named entities and bare ampersands as written', () => {
    expect(htmlToPlainText('&foo; &bogus123; AT&T &amp &; &#; &#x; & x')).toBe('&foo; &bogus123; AT&T &amp &; &#; &#x; & x');
    expect(htmlToPlainText('&AMP; &Copy;')).toBe('&AMP; &Copy;');
  });

  it('decodes only once', () => {
    expect(htmlToPlainText('&amp;amp; &amp;lt; &amp;#39;')).toBe('&amp; &lt; &#39;');
  });

  it('decodes after tag stripping, so escaped markup stays literal text', () => {
    expect(htmlToPlainText('&lt;b&gt;not bold&lt;/b&gt;')).toBe('<b>not bold</b>');
    expect(htmlToPlainText('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>')).toBe('<script>alert(1)</script>');
    expect(htmlToPlainText('&lt;br&gt;')).toBe('<br>');
    expect(htmlToPlainText('&lt;!-- c --&gt;')).toBe('<!-- c -->');
  });

  it('treats decoded whitespace like the literal character', () => {
    expect(htmlToPlainText('a&#32;&#32;b')).toBe('a b');
    expect(htmlToPlainText('a&#10;b')).toBe('a\nb');
  });

  it('is exported as decodeEntities for attribute values', () => {
    expect(decodeEntities('a &amp; b &lt;c&gt; &unknown; &#x41;')).toBe('a & b <c> &unknown; A');
    expect(decodeEntities('no entities')).toBe('no entities');
  });
});

describe('htmlToPlainText: malformed input', () => {
  it('keeps a stray < as text', () => {
    expect(htmlToPlainText('1 < 2 and 3 <= 4 <3')).toBe('1 < 2 and 3 <= 4 <3');
    expect(htmlToPlainText('I\n<3 you')).toBe('I\n<3 you');
    expect(htmlToPlainText('<')).toBe('<');
    expect(htmlToPlainText('a </ b')).toBe('a </ b');
  });

  it('keeps an unterminated tag at the end of input as text', () => {
    expect(htmlToPlainText('if x<y then z')).toBe('if x<y then z');
    expect(htmlToPlainText('<p>ok</p>broken <a href="x')).toBe('ok\nbroken <a href="x');
  });

  it('handles unclosed elements', () => {
    expect(htmlToPlainText('<p>one<p>two<div>three')).toBe('one\ntwo\nthree');
    expect(htmlToPlainText('<b><i>bold italic')).toBe('bold italic');
  });

  it('handles stray closing tags', () => {
    expect(htmlToPlainText('a</b></i></span>b</p>c')).toBe('ab\nc');
  });

  it('handles quotes that are not at the start of a value', () => {
    expect(htmlToPlainText('<p class=a"b>x</p>y')).toBe('x\ny');
    expect(htmlToPlainText('<p "weird" \'attr\'>x</p>')).toBe('x');
  });

  it('handles a stray > in text', () => {
    expect(htmlToPlainText('a > b <b>c</b> >')).toBe('a > b c >');
  });

  it('handles an = without attribute name', () => {
    expect(htmlToPlainText('<p =x>y</p>')).toBe('y');
  });

  it('never throws on odd inputs', () => {
    const odd = [
      '<', '>', '&', '<<>>', '</>', '<!', '<?', '<!--', '<a', '<a href', '<a href=', '<a href="', "<a href='",
      '<script', '<script>', '</script>', '<pre>', '&#', '&#x', '&#x;', '\u0000', '\ud800', '<\ud800>',
      '<a href="\ud800">x</a>',
    ];
    for (const s of odd) expect(() => htmlToPlainText(s)).not.toThrow();
  });

  it('returns string even for non-string values passed from untyped code', () => {
    expect(htmlToPlainText(undefined as unknown as string)).toBe('');
    expect(htmlToPlainText(42 as unknown as string)).toBe('42');
  });
});
