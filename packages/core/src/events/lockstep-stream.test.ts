import { describe, expect, it } from 'vitest';
import { isStreamClosed, LockstepStream, type Emit } from './lockstep-stream.js';

// The stream replaces async generators: each case runs the same run as a generator and as a
// LockstepStream, and both must show the same steps to the reader.

type Log = string[];

async function* asGenerator(log: Log, events: number): AsyncGenerator<number, string> {
  try {
    log.push('start');
    for (let i = 0; i < events; i++) {
      log.push(`before ${i}`);
      yield i;
      log.push(`after ${i}`);
    }
    return 'end';
  } finally {
    log.push('finally');
  }
}

function asStream(log: Log, events: number): LockstepStream<number, string> {
  return new LockstepStream(async (emit: Emit<number>) => {
    try {
      log.push('start');
      for (let i = 0; i < events; i++) {
        log.push(`before ${i}`);
        await emit(i);
        log.push(`after ${i}`);
      }
      return 'end';
    } finally {
      log.push('finally');
    }
  });
}

type Read = (gen: AsyncGenerator<number, string>, log: Log) => Promise<unknown>;

async function both(read: Read, events = 3): Promise<{ generator: Log; stream: Log }> {
  const generator: Log = [];
  const stream: Log = [];
  const fromGenerator = await read(asGenerator(generator, events), generator).catch((e: Error) => `threw ${e.message}`);
  const fromStream = await read(asStream(stream, events), stream).catch((e: Error) => `threw ${e.message}`);
  generator.push(`result ${JSON.stringify(fromGenerator)}`);
  stream.push(`result ${JSON.stringify(fromStream)}`);
  return { generator, stream };
}

describe('LockstepStream', () => {
  it('runs nothing before the first next(), and moves in lockstep with its reader', async () => {
    const { generator, stream } = await both(async (gen, log) => {
      log.push('made');
      for (let step = await gen.next(); ; step = await gen.next()) {
        log.push(`read ${JSON.stringify(step)}`);
        if (step.done) return step.value;
      }
    });
    expect(stream).toEqual(generator);
    expect(stream[0]).toBe('made');
  });

  it('unwinds the run through its finally blocks when the reader returns early', async () => {
    const { generator, stream } = await both(async (gen, log) => {
      for await (const value of gen) {
        log.push(`read ${value}`);
        if (value === 1) break;
      }
      log.push('left');
      return gen.next();
    });
    expect(stream).toEqual(generator);
    expect(stream).toContain('finally');
    expect(stream).not.toContain('after 1');
  });

  it('throws into the run where it waits, and ends when the run does not catch', async () => {
    const { generator, stream } = await both(async (gen, log) => {
      await gen.next();
      log.push('throwing');
      return gen.throw(new Error('reader gave up'));
    });
    expect(stream).toEqual(generator);
    expect(stream.at(-1)).toBe('result "threw reader gave up"');
  });

  it('answers return() and throw() before the first next() without running anything', async () => {
    const returned = await both(async (gen) => [await gen.return('early'), await gen.next()]);
    expect(returned.stream).toEqual(returned.generator);
    expect(returned.stream).toEqual(['result [{"value":"early","done":true},{"done":true}]']);
    const thrown = await both(async (gen) => gen.throw(new Error('no')));
    expect(thrown.stream).toEqual(thrown.generator);
  });

  it('serves next() calls made without awaiting, in order', async () => {
    const { generator, stream } = await both(async (gen) => Promise.all([gen.next(), gen.next(), gen.next()]));
    expect(stream).toEqual(generator);
  });

  it("passes the run's error to the reader, then reports done", async () => {
    const failing = new LockstepStream<number, string>(async (emit) => {
      await emit(1);
      throw new Error('run failed');
    });
    expect(await failing.next()).toEqual({ done: false, value: 1 });
    await expect(failing.next()).rejects.toThrow('run failed');
    expect(await failing.next()).toEqual({ done: true, value: undefined });
  });

  it('makes a waiting emit throw StreamClosed when the reader returns', async () => {
    let caught: unknown;
    const stream = new LockstepStream<number, string>(async (emit) => {
      try {
        await emit(1);
      } catch (e) {
        caught = e;
        throw e;
      }
      return 'not reached';
    });
    await stream.next();
    expect(await stream.return('stopped')).toEqual({ done: true, value: 'stopped' });
    expect(isStreamClosed(caught)).toBe(true);
  });
});
