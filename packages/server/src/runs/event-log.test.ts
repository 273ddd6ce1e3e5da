import { describe, expect, it } from 'vitest';
import { EventLog } from './event-log.js';

const delta = (data: string) => ({ type: 'textDelta' as const, path: [], data });

describe('EventLog', () => {
  it('numbers events <turn>.<attempt>.<seq>, replays from a seq, then live, then ends', () => {
    const log = new EventLog(4, 1, 100);
    log.append(delta('a'));
    log.append(delta('b'));
    const seen: string[] = [];
    let ended = false;
    log.subscribe(1, {
      event: (e) => seen.push(`${e.id}:${(e.event as { data: string }).data}`),
      end: () => (ended = true),
    });
    log.append(delta('c'));
    log.end();
    expect(seen).toEqual(['4.1.1:b', '4.1.2:c']);
    expect(ended).toBe(true);
    expect(log.since(0).map((e) => e.frame)).toEqual([
      'id: 4.1.0\nevent: textDelta\ndata: {"type":"textDelta","path":[],"data":"a"}\n\n',
      'id: 4.1.1\nevent: textDelta\ndata: {"type":"textDelta","path":[],"data":"b"}\n\n',
      'id: 4.1.2\nevent: textDelta\ndata: {"type":"textDelta","path":[],"data":"c"}\n\n',
    ]);
  });

  it('keeps at most maxEvents (the oldest go first)', () => {
    const log = new EventLog(1, 0, 2);
    for (const d of ['a', 'b', 'c']) log.append(delta(d));
    expect(log.firstSeq).toBe(1);
    expect(log.since(0).map((e) => e.seq)).toEqual([1, 2]);
  });

  it('a subscriber that throws is dropped; the others and the log go on', () => {
    const log = new EventLog(1, 0, 10);
    const good: number[] = [];
    log.subscribe(0, {
      event: () => {
        throw new Error('broken client');
      },
      end: () => undefined,
    });
    log.subscribe(0, { event: (e) => good.push(e.seq), end: () => undefined });
    log.append(delta('a'));
    log.append(delta('b'));
    expect(good).toEqual([0, 1]);
    expect(log.subscriberCount).toBe(1);
  });
});
