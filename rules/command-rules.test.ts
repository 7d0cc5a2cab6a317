// The rule book's rule of which clock command a board can take (command-rules.ts), which the
// hosts and the dashboard read, must say what the clock's own statechart says
// (rules/clock.machine.ts): a command the host refuses but the clock would take is an
// arbiter's power lost (the host refused resume after a flag, which Laws 6.10.2 allows), and
// one the host sends but the clock refuses is a 409 the host could have given with the rule's
// reason. The statechart is the reference here.
import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { clockMachine, type ClockInput, type ClockOutput } from './clock.machine.ts';
import { StepClock } from './step-clock.ts';
import { parseSideControl, timeControl } from '../protocol/time-control.ts';
import { boardCommandRefusal, clockCommandRefusal, commandPlace, commandStatus } from './command-rules.ts';
import { BOARD_STATUSES, CLOCK_COMMANDS, type BoardStatus, type ClockCommandName } from './vocabulary.ts';

const side60 = parseSideControl('60');

/**
 * A clock brought into `status` by real inputs; each state has a completed move and time left
 * on move (`moved` false: a started clock paused before any move, for the take-back case).
 */
function clockIn(status: BoardStatus, moved = true) {
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
    if (moved) send({ type: 'PRESS', side: 'white', at: 1000 });
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

function input(cmd: ClockCommandName, at: number): ClockInput {
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
    case 'delay':
      return { type: 'DELAY', ms: 5000, at };
    case 'set-turn':
      return { type: 'SET_TURN', side: 'black', at };
    case 'set-control':
      return { type: 'SET_CONTROL', timeControl: timeControl(side60, side60), at };
  }
}

describe('the rule book refuses exactly what the clock statechart refuses (one rule set; FIDE Laws 6.7.1, 6.10.2, 7.5.1)', () => {
  // Every status and every clock command of the vocabulary (rules/vocabulary.ts): a new one is checked here at once.
  for (const status of BOARD_STATUSES) {
    it(`a ${status} clock`, () => {
      const differences: string[] = [];
      for (const cmd of CLOCK_COMMANDS) {
        const clock = clockIn(status);
        clock.send(input(cmd, clock.at));
        const clockTakes = clock.refused.length === 0;
        // `hasGame` true: whether the host has heard of the game is its own precondition, not a clock rule.
        // The control is known (the board's view has it): 60 s is blitz, where no quickplay finish is set (Guidelines III).
        const hostRefusal = clockCommandRefusal(cmd, status, true, 'board 1', { timeControl: timeControl(side60, side60) });
        if (clockTakes !== (hostRefusal === null)) {
          differences.push(
            `${cmd}: clock ${clockTakes ? 'takes it' : `refuses (${clock.refused[0]})`}, host ${hostRefusal === null ? 'sends it' : `refuses (${hostRefusal})`}`,
          );
        }
      }
      expect(differences).toEqual([]);
    });
  }

  it('FIDE Laws 7.5.1: with no completed move there is nothing to take back, as the clock answers', () => {
    const clock = clockIn('paused', false);
    clock.send(input('takeback', clock.at));
    expect(clock.refused).toEqual(['no completed move to take back']);
    expect(clockCommandRefusal('takeback', 'paused', true, 'board 1', { movesCompleted: 0 })).toBe('board 1: no completed move to take back');
    // Without the count (the hosts), the clock's NACK answers instead.
    expect(clockCommandRefusal('takeback', 'paused', true, 'board 1')).toBeNull();
  });
});

describe('the board the rule reads: status and place as the host and the dashboard hold them', () => {
  const board = { event: 'Slovenian Final', round: 1, board: 2 };

  it('a game with a result is finished, whatever its clock was left doing (a result entered at the host)', () => {
    expect(commandStatus({ result: '1-0', live: { status: 'running' } })).toBe('finished');
    expect(commandStatus({ result: null, live: { status: 'flagged' } })).toBe('flagged');
    // Before the clock reported the game, it stands ready.
    expect(commandStatus({ result: null, live: null })).toBe('ready');
  });

  it('names the board in the words the hosts use in their refusals', () => {
    expect(commandPlace(board)).toBe('board 2 of Slovenian Final round 1');
    expect(boardCommandRefusal('pause', { ...board, result: null, live: { status: 'flagged' } })).toBe(
      'board 2 of Slovenian Final round 1 is flagged, not running',
    );
    expect(boardCommandRefusal('adjust', { ...board, result: null, live: null })).toBe('board 2 of Slovenian Final round 1 has no game on its clock');
    expect(boardCommandRefusal('start', { ...board, result: null, live: null })).toBeNull();
    // A result command never reaches the clock: the rule has nothing to say about it.
    expect(boardCommandRefusal('result', { ...board, result: '1-0', live: null })).toBeNull();
  });
});
