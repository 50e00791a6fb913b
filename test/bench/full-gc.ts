// A full collection between memory readings, without starting node with --expose-gc: the memory
// benches measure what stays live, not what the next collection would free.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function fullGc(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}
