// A full garbage collection on demand, in any node process (the unit tests' and the extension
// host's) without starting it with --expose-gc: the flag can be set at run time, and `gc` is then
// defined in every context created after that.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
