/**
 * Where a stream event happened in the run tree. The path is the one interrupts (`source`),
 * guardrail trips and orchestrator nodes already use: the names from the outermost run to the
 * agent, node or member that made the event, joined by `/` (`billing/refund`: the `refund` agent
 * used as a tool by `billing`; `desk/refund`: member `refund` of a swarm in graph node `desk`). An
 * outermost agent's own events have its name alone; an outermost orchestrator's own events (node
 * starts and stops, transitions) have the empty path. The depth is the number of `/` in the path:
 * 0 for the outermost run and the nodes of an outermost orchestrator, one more per nesting.
 */

/** Where an event happened: its run-tree path and depth (see the module comment). */
export interface EventPlace {
  /** The names from the outermost run to whoever made the event, joined by `/`. */
  path: string;
  /** How deep in the run tree: the number of `/` in `path`. */
  depth: number;
}

/** The depth of `path`: how many `/` it has. */
export function depthOf(path: string): number {
  let depth = 0;
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) depth++;
  return depth;
}

/**
 * Stamps `event` (made by the run at `path`) with its place, unless it already has one: a wrapper
 * (`nodeStream`, `toolStream`) carries the place of the event it wraps, so `event.path` always names
 * who made the innermost event. Mutates and returns `event` (events are fresh objects: no copy).
 */
export function placeEvent<E extends object>(event: E, path: string, depth: number): E & EventPlace {
  const placed = event as E & Partial<EventPlace>;
  if (placed.path === undefined) {
    placed.path = path;
    placed.depth = depth;
  }
  return placed as E & EventPlace;
}

/** An invocation's place given by whoever runs it (an agent used as a tool), and how deep its stream reaches. */
export interface RunPlace {
  readonly path: string;
  /** The deepest events the outermost stream asked for (`undefined`: all). */
  readonly maxDepth: number | undefined;
  /**
   * Takes each event of the invocation (already placed), as a `stream()` reader would (a promise: wait
   * for it); an agent used as a tool hands its events to its caller's stream this way, without a
   * generator of its own in between.
   */
  readonly reader?: PlacedReader | undefined;
}

/** Takes one placed event; a promise when the taker must be waited for. */
export type PlacedReader = (event: EventPlace & { readonly type: string }) => Promise<void> | undefined;

/** Places given to nested invocations, by the options object they were invoked with. */
const byOptions = new WeakMap<object, RunPlace>();

/** Gives the invocation made with `options` its place in the run tree (an agent used as a tool). */
export function attachPlace<O extends object>(options: O, place: RunPlace): O {
  byOptions.set(options, place);
  return options;
}

/** The place given to the invocation made with `options`, if any. */
export function placeOf(options: object): RunPlace | undefined {
  return byOptions.get(options);
}

/** True when events at `depth` reach a stream limited to `maxDepth`. */
export function withinDepth(depth: number, maxDepth: number | undefined): boolean {
  return maxDepth === undefined || depth <= maxDepth;
}

/**
 * An orchestrator's emit that stamps its events with the run's place (`path`: `''` for the outermost,
 * the node path in an enclosing run); `undefined` stays `undefined` (nobody watches: no work).
 */
export function placing<E extends object, R>(
  emit: ((event: E & EventPlace) => R) | undefined,
  path: string,
): ((event: E) => R) | undefined {
  if (!emit) return undefined;
  const depth = depthOf(path);
  return (event) => emit(placeEvent(event, path, depth));
}
