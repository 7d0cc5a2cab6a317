// One arbiter's command to a board, as every board write runs it (docs/api.md "Writes"): handed
// to the CommandSink with the arbiter's name (which journals it, also when refused), answered
// with the board as it is now or the refusal's status and reason. The changed boards reach the
// live feed through the host's one watchBoards (host/app/board-views.ts), as every board change does.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ArbiterCommand, CommandSink, HostState } from '../../app/ports.ts';
import { apiError } from './api-error.ts';

/** Runs a command for the request's arbiter (`req.arbiter`, auth.ts) and answers. */
export type RunCommand = (req: FastifyRequest, reply: FastifyReply, command: ArbiterCommand) => Promise<FastifyReply>;

export function commandRunner(deps: { readonly state: HostState; readonly commands: CommandSink }): RunCommand {
  return async (req, reply, command) => {
    const arbiter = req.arbiter;
    const outcome = await deps.commands.execute(command, { arbiter });
    if (!outcome.ok) return reply.code(outcome.status).send(apiError(outcome.status, outcome.reason));
    const board = outcome.board ?? deps.state.board(command.boardId);
    return reply.send({ ok: true, arbiter, board: board ?? null });
  };
}
