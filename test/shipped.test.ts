// Where the single executable finds a shipped file: the asset key of a path under its root, with
// doubled and trailing slashes read as the disk reads them (the fixture cache's directory ends in
// one), and the root itself, or any path outside it, left to the disk.

import { describe, expect, it } from 'vitest';
import { assetKey, SHIPPED_ROOT } from '../src/shipped.js';

describe('assetKey', () => {
  it('names the asset of a path under the root, slashes as on disk', () => {
    expect(assetKey(`${SHIPPED_ROOT}dist/fixture-cache//abc.json`, true)).toBe('dist/fixture-cache/abc.json');
    expect(assetKey(`${SHIPPED_ROOT}fixtures/`, true)).toBe('fixtures');
    expect(assetKey(`${SHIPPED_ROOT}fixtures`, true)).toBe('fixtures');
    expect(assetKey(`${SHIPPED_ROOT}package.json`, true)).toBe('package.json');
  });

  it('leaves the root, paths outside it and every path outside the executable to the disk', () => {
    expect(assetKey(SHIPPED_ROOT, true)).toBeUndefined();
    expect(assetKey(SHIPPED_ROOT.slice(0, -1), true)).toBeUndefined();
    expect(assetKey('/home/me/fixtures', true)).toBeUndefined();
    expect(assetKey(`${SHIPPED_ROOT}fixtures/demo.json`, false)).toBeUndefined();
  });
});
