// A query string as the API reads it: one value per name, the first of repeated names winning.

/** `?a=1&a=2&b` → `{ a: '1', b: '' }`; an empty string or a lone `?` gives `{}`. */
export function parseQuery(search: string): Record<string, string> {
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: equivalent, URLSearchParams reads '' and '?' as empty too; the check spares building one
  if (search === '' || search === '?') return {};
  // fromEntries defines own properties, so a `__proto__` parameter cannot reach a prototype.
  const seen = new Set<string>();
  const entries: [string, string][] = [];
  for (const [k, v] of new URLSearchParams(search)) {
    if (seen.has(k)) continue;
    seen.add(k);
    entries.push([k, v]);
  }
  return Object.fromEntries(entries);
}

/** Query text a boolean reads as: true/false in any letter case, 1/0 (the official clients' spellings); else undefined. */
export function booleanText(text: string): boolean | undefined {
  // Stryker disable next-line ConditionalExpression: equivalent, no longer text is one of the spellings (the check bounds the lower-casing)
  if (text.length > 5) return undefined;
  const t = text.toLowerCase();
  return t === 'true' || t === '1' ? true : t === 'false' || t === '0' ? false : undefined;
}
