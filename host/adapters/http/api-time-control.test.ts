// The configure body is read by the one time-control reader (protocol/time-control.ts
// readTimeControlSpec), so it keeps what the API's own copy dropped: `incrementTiming`
// (docs/architecture.md "The rule book": one reader of a time control). Checked where it matters: the control
// forwarded to the board's clock, through the wire form, runs in the clock's statechart with
// the increment credited after the move, not before it.
import { afterEach, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { FastifyInstance } from 'fastify';
import { buildApi } from './api.ts';
import { JournalBoards } from '../../app/journal-boards.fixture.ts';
import type { ArbiterCommand } from '../../app/ports.ts';
import { timeControlFromProto, timeControlToProto } from '../../../protocol/time-control-codec.ts';
import { clockMachine } from '../../../rules/clock.machine.ts';
import { readClock } from '../../../rules/clock-reading.ts';
import { StepClock } from '../../../rules/step-clock.ts';
import type { TimeControl } from '../../../protocol/time-control.ts';

const TOKEN = 'tok-anna-0123456789abcdef';
const apps: FastifyInstance[] = [];
const hosts: JournalBoards[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
  for (const h of hosts.splice(0)) h.close();
});

async function setup() {
  const host = new JournalBoards();
  hosts.push(host);
  host.addBoard({ id: 'open-1', event: 'Open', round: 1, board: 1, clockId: 'clk-1' });
  const forwarded = host.forwarded;
  // No dashboard: these tests are about the API, not the page's rule book bundle.
  const app = await buildApi({ state: host, commands: host, tokens: [{ arbiter: 'Anna', token: TOKEN }], dashboard: false });
  apps.push(app);
  const configure = (payload: object) =>
    app.inject({ method: 'PUT', url: '/api/boards/open-1/config', headers: { authorization: `Bearer ${TOKEN}` }, payload });
  return { configure, forwarded };
}

/** The control as the clock gets it (the wire's Configure fields), started, both clocks read at the start. */
function atTheClock(tc: TimeControl) {
  const wire = timeControlFromProto(timeControlToProto(tc));
  const steps = new StepClock();
  const actor = createActor(clockMachine, { input: { timeControl: wire }, clock: steps });
  actor.start();
  actor.send({ type: 'START', at: 0 });
  return { wire, reading: readClock(actor.getSnapshot().context.clock, 0) };
}

describe('PUT /api/boards/:id/config: incrementTiming reaches the clock', () => {
  it("'after-move' (PGN, online play): the clock starts without the first move's increment", async () => {
    const { configure, forwarded } = await setup();
    const res = await configure({ timeControl: '900+10', incrementTiming: 'after-move' });
    expect(res.statusCode).toBe(200);
    const sent = forwarded.at(-1) as Extract<ArbiterCommand, { type: 'configure' }>;
    expect(sent.timeControl.incrementTiming).toBe('after-move');
    const clock = atTheClock(sent.timeControl);
    expect(clock.wire.incrementTiming).toBe('after-move');
    expect(clock.reading.white).toBe(900_000);
  });

  it("left out: 'before-move', FIDE practice (the first move's 10 s are credited at the start)", async () => {
    const { configure, forwarded } = await setup();
    expect((await configure({ timeControl: 'rapid', defaultTime: 600 })).statusCode).toBe(200);
    const sent = forwarded.at(-1) as Extract<ArbiterCommand, { type: 'configure' }>;
    expect(sent.timeControl).toMatchObject({ incrementTiming: 'before-move', defaultTimeMs: 600_000 });
    expect(atTheClock(sent.timeControl).reading.white).toBe(910_000);
  });

  it('with a preset and with per-side controls too; unequal controls also as W…-B…', async () => {
    const { configure, forwarded } = await setup();
    expect((await configure({ timeControl: 'rapid', incrementTiming: 'after-move' })).statusCode).toBe(200);
    expect((await configure({ timeControl: { white: '360+2', black: '300+2' }, incrementTiming: 'after-move' })).statusCode).toBe(200);
    expect((await configure({ timeControl: 'W360+2-B300+2', incrementTiming: 'after-move' })).statusCode).toBe(200);
    const sent = forwarded.map((c) => (c as Extract<ArbiterCommand, { type: 'configure' }>).timeControl);
    expect(sent.map((tc) => tc.incrementTiming)).toEqual(['after-move', 'after-move', 'after-move']);
    expect(sent[2]).toEqual(sent[1]);
  });

  it('a timing that is not one of the two is a 400 naming the field and its values; nothing reaches the clock', async () => {
    const { configure, forwarded } = await setup();
    const res = await configure({ timeControl: '900+10', incrementTiming: 'sometimes' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'incrementTiming', message: 'body: "incrementTiming" must be one of "before-move", "after-move"' });
    expect(forwarded).toEqual([]);
  });
});
