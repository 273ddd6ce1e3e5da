/**
 * A conversation as the customer lives it: one case per message they wrote, with the desk's one
 * answer, what waits for a person and what that person decided, a progress line while the desk works,
 * and the machinery (routing, case notes, tool calls, the agents' own texts) as details, branch by
 * branch. The live page and a page opened again build the same cases (`live-story.ts` from the
 * stream, `stored-story.ts` from the stored conversation); `render-story.ts` draws them.
 */

/** One branch of the details: what one agent (a graph node, a swarm member, the desk) did, in order. */
export interface DetailBranch {
  who: string;
  lines: string[];
}

/** A person's answer to something that waited. */
export interface Decision {
  /** The tool call it was about (its `toolUseId`). */
  call: string;
  approved: boolean;
  /** `Approved by our team: <note>` / `Not approved: <note>`. */
  text: string;
}

/** One message of the customer and what came of it. */
export interface StoryCase {
  message: string;
  /** The desk's answer ('' until there is one). */
  answer: string;
  /** What waits for a person ('' when nothing does). */
  waiting: string;
  decisions: Decision[];
  /** Why the answer did not finish, in plain words ('' when it did). */
  problem: string;
  /** What the desk is doing right now (live only; '' when idle). */
  progress: string;
  details: DetailBranch[];
}

/** A fresh case for `message`. */
export function newCase(message: string): StoryCase {
  return { message, answer: '', waiting: '', decisions: [], problem: '', progress: '', details: [] };
}

/** Makes `who`'s branch (empty until it has a line; shown only then), so branches keep the order the case reached them. */
export function addBranch(story: StoryCase, who: string): void {
  if (!story.details.some((b) => b.who === who)) story.details.push({ who, lines: [] });
}

/** Adds `line` to `who`'s branch (made when new; branches keep the order they first appeared in); a line already there is not repeated. */
export function addDetail(story: StoryCase, who: string, line: string): void {
  if (!line) return;
  let branch = story.details.find((b) => b.who === who);
  if (!branch) story.details.push((branch = { who, lines: [] }));
  if (!branch.lines.includes(line)) branch.lines.push(line);
}

/** Records a decision on `call` unless one is known (a stored decision has the person's note). */
export function decide(story: StoryCase, decision: Decision): void {
  if (!story.decisions.some((d) => d.call === decision.call)) story.decisions.push(decision);
}

/** A deep copy, so that live parts can be folded onto stored cases without touching them. */
export function copyCases(cases: readonly StoryCase[]): StoryCase[] {
  return cases.map((c) => ({
    ...c,
    decisions: c.decisions.map((d) => ({ ...d })),
    details: c.details.map((b) => ({ who: b.who, lines: [...b.lines] })),
  }));
}
