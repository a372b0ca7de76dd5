// One area of the shared state (syncState.ts AREAS: jobs, drafts, links, reviews, previews…) as the
// feature that owns it sees it: its value, the one way to change it, and an event that fires only
// when this area changed, here or in another window. A change is stamped by the handle (the
// window's hybrid clock), and whatever the change leaves out that this version does not know (a
// field a newer version added to an entry, a register or a value) is put back before the change is
// written: a feature may rebuild an entry from the fields it knows, and a newer window's fields still
// survive, in this window and in every file its stamp spreads to. No vscode import: the unit tests
// build a handle over a SharedStore.
import type * as z from 'zod/mini';
import { Emitter } from '../util/emitter';
import { Stamp } from './sharedSchema';
import { type AreaName, KNOWN_AREAS, mergeArea, type SyncState } from './syncState';

/** What a handle changes the state through: the window's glue (windowSync.ts), or a SharedStore in a test. */
export interface AreaHost {
  readonly state: SyncState;
  readonly clock: { next(): Stamp };
  /** Applies the change in memory at once (before it returns), then writes this window's file. */
  update(change: (state: SyncState) => void): Promise<void>;
}

export class SharedArea<N extends AreaName> {
  private readonly emitter: Emitter<void>;
  /** Fires when this area changed: a change made here (before its write ends), or another window's, once read. */
  readonly onDidChange;

  constructor(
    readonly name: N,
    private readonly host: AreaHost,
    onListenerError?: (error: unknown) => void,
  ) {
    this.emitter = new Emitter<void>(onListenerError);
    this.onDidChange = this.emitter.event;
  }

  /** The area as every window's files and this window's changes make it: read it, change it only through change(). */
  get value(): Readonly<SyncState[N]> {
    return this.host.state[this.name];
  }

  /**
   * Changes the area in this window at once and tells its listeners; the promise is the write, which
   * may fail (this window keeps the change either way). `edit` changes the area in place, taking a
   * fresh stamp for each register it writes; what it left out that the area's schema does not name
   * is put back (keepUnknown).
   */
  change(edit: (area: SyncState[N], stamp: () => Stamp) => void): Promise<void> {
    const written = this.host.update((state) => {
      const before = structuredClone(state[this.name]);
      edit(state[this.name], () => this.host.clock.next());
      state[this.name] = keepUnknown(schemaOf(this.name), before, state[this.name]);
    });
    this.emitter.fire();
    return written;
  }

  /** Takes in a copy of the area made elsewhere (what an older version kept outside the files), merged as a file's is. */
  mergeIn(other: SyncState[N]): Promise<void> {
    const written = this.host.update((state) => (state[this.name] = mergeArea(this.name, state[this.name], other)));
    this.emitter.fire();
    return written;
  }

  /** Called by the window's glue when a read (or a change made around the handles) changed this area. */
  changed(): void {
    this.emitter.fire();
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

function schemaOf(name: AreaName): z.ZodMiniType {
  const schema = KNOWN_AREAS.get(name);
  if (!schema) throw new Error(`no shared area ${name}`);
  return schema;
}

type Plain = Record<string, unknown>;
const isPlain = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);

interface Def {
  type: string;
  innerType?: z.ZodMiniType;
  valueType?: z.ZodMiniType;
  shape?: Record<string, z.ZodMiniType>;
}
const defOf = (schema: z.ZodMiniType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/**
 * `after` with every field of `before` that `schema` does not name and `after` left out put back,
 * at every depth where both hold the same entry (a record's key in both, an object's known field in
 * both); copies only what it changes. What the schema names is the writer's: a known field left
 * out stays out, an entry removed stays removed, a value that became null or another shape is taken
 * as it is. A stamp is the writer's whole: the new one keeps nothing of the old.
 */
function keepUnknown<T>(schema: z.ZodMiniType, before: unknown, after: T): T {
  if (!isPlain(before) || !isPlain(after) || before === after || schema === Stamp) return after;
  const def = defOf(schema);
  switch (def.type) {
    case 'default':
    case 'optional':
    case 'nullable':
      return def.innerType ? keepUnknown(def.innerType, before, after) : after;
    case 'record': {
      let out: Plain = after;
      for (const [key, value] of Object.entries(after)) {
        if (!(key in before) || !def.valueType) continue;
        const kept = keepUnknown(def.valueType, before[key], value);
        if (kept !== value) out = { ...out, [key]: kept };
      }
      return out as T;
    }
    case 'object': {
      const shape = def.shape ?? {};
      let out: Plain = after;
      for (const [key, value] of Object.entries(before)) {
        if (!(key in shape) && !(key in after)) out = { ...out, [key]: value };
      }
      for (const [key, field] of Object.entries(shape)) {
        if (!(key in before) || !(key in after)) continue;
        const kept = keepUnknown(field, before[key], after[key]);
        if (kept !== after[key]) out = { ...out, [key]: kept };
      }
      return out as T;
    }
    default:
      return after;
  }
}
