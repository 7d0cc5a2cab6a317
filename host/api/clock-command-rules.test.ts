// The host's rule of which clock command a board can take (clock-command-rules.ts) must say
// what the clock's own statechart says (rules/clock.machine.ts): a command the host
// refuses but the clock would take is an arbiter's power lost (the host refused resume after
// a flag, which Laws 6.10.2 allows), and one the host sends but the clock refuses is a 409
// the host could have given with the rule's reason. The statechart is the reference here.
import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { clockMachine, type ClockInput, type ClockOutput } from '../../rules/clock.machine.ts';
import { StepClock } from '../../firmware-ts/step-clock.ts';
import { parseSideControl, timeControl } from '../../protocol/time-control.ts';
import { clockCommandRefusal } from './clock-command-rules.ts';
import type { ArbiterCommand, ClockStatus } from './host-ports.ts';

type Cmd = Exclude<ArbiterCommand['type'], 'result' | 'confirm-result'> & string;
const side60 = parseSideControl('60');

/** A clock brought into `status` by real inputs; each state has a completed move and time left on move. */
function clockIn(status: ClockStatus) {
  const steps = new StepClock();
  const tc = timeControl(side60, side60, { defaultTime: status === 'forfeited' ? 30 : null });
  const actor = createActor(clockMachine, { input: { timeControl: tc }, clock: steps });
  const refused: string[] = [];
  actor.on('rejected', (o: ClockOutput) => o.type === 'rejected' && refused.push(o.reason));
  actor.start();
  const send = (e: ClockInput) => {
    steps.advanceTo(e.at);
    actor.send(e);
    steps.advanceTo(e.at);
  };
  if (status !== 'ready') {
    send({ type: 'START', at: 0 });
    send({ type: 'PRESS', side: 'white', at: 1000 });
  }
  if (status === 'paused' || status === 'finished') send({ type: 'PAUSE', at: 2000 });
  if (status === 'finished') send({ type: 'RESULT', result: '1-0', by: 'players', at: 3000 });
  if (status === 'flagged') {
    steps.advanceTo(61_000); // Black's flag falls (FIDE Laws 6.9)
    send({ type: 'ADJUST', side: 'black', ms: 30_000, at: 62_000 }); // the arbiter gives time back (6.10.2)
  }
  if (status === 'forfeited') steps.advanceTo(30_000); // Black never came (6.7.1)
  const snap = actor.getSnapshot();
  const machineState = typeof snap.value === 'string' ? snap.value : Object.keys(snap.value)[0];
  expect(machineState).toBe(status === 'finished' ? 'over' : status);
  // The command comes half a second after the last step, before any deadline of the state.
  return { refused, send, at: status === 'flagged' ? 62_500 : status === 'forfeited' ? 30_500 : 3_500 };
}

function input(cmd: Cmd, at: number): ClockInput {
  switch (cmd) {
    case 'configure':
      return { type: 'NEW_GAME', timeControl: timeControl(side60, side60), at };
    case 'start':
      return { type: 'START', at };
    case 'pause':
      return { type: 'PAUSE', at };
    case 'resume':
      return { type: 'RESUME', at };
    case 'adjust':
      return { type: 'ADJUST', side: 'white', ms: 1000, at };
    case 'penalty':
      return { type: 'PENALTY', side: 'white', at };
    case 'set-moves':
      return { type: 'SET_MOVES', side: 'white', moves: 3, at };
    case 'arrive':
      return { type: 'ARRIVE', side: 'black', at };
    case 'takeback':
      return { type: 'TAKEBACK', at };
    case 'reinstate':
      return { type: 'REINSTATE', at };
    case 'increment':
      return { type: 'INCREMENT', ms: 5000, at };
  }
}

const STATUSES: ClockStatus[] = ['ready', 'running', 'paused', 'flagged', 'forfeited', 'finished'];
const COMMANDS: Cmd[] = ['configure', 'start', 'pause', 'resume', 'adjust', 'penalty', 'set-moves', 'arrive', 'takeback', 'reinstate', 'increment'];

describe('the host refuses exactly what the clock statechart refuses (one rule set; FIDE Laws 6.7.1, 6.10.2, 7.5.1)', () => {
  for (const status of STATUSES) {
    it(`a ${status} clock`, () => {
      const differences: string[] = [];
      for (const cmd of COMMANDS) {
        const clock = clockIn(status);
        clock.send(input(cmd, clock.at));
        const clockTakes = clock.refused.length === 0;
        // `hasGame` true: whether the host has heard of the game is its own precondition, not a clock rule.
        const hostRefusal = clockCommandRefusal(cmd, status, true, 'board 1');
        if (clockTakes !== (hostRefusal === null)) {
          differences.push(`${cmd}: clock ${clockTakes ? 'takes it' : `refuses (${clock.refused[0]})`}, host ${hostRefusal === null ? 'sends it' : `refuses (${hostRefusal})`}`);
        }
      }
      expect(differences).toEqual([]);
    });
  }
});
