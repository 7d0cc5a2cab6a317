// The journal's tables. One SQLite file is the host's authoritative record: every clock
// event, every game and its result, every arbiter action, and the outbox the MQTT
// publisher drains. Tables are STRICT so a wrong type is an error, not a silent coercion.
//
// Versioned with `PRAGMA user_version`: opening an older file applies the missing steps;
// opening a newer one is refused (a downgraded host must not write a format it does not know).
// SCHEMA_STEPS[i] takes a file from version i to i + 1 (SCHEMA_V1 creates the first tables).

import { GAME_RESULTS, SIDES } from '../../rules/vocabulary.ts';

export const SCHEMA_VERSION = 5;

/** `'a', 'b'`: an SQL list of the vocabulary's words, for a CHECK (schema.test.ts holds the table to it). */
export function sqlList(words: readonly string[]): string {
  return words.map((w) => `'${w.replace(/'/g, "''")}'`).join(', ');
}

export const SCHEMA_V1 = `
CREATE TABLE clocks (
  clock_id          TEXT PRIMARY KEY,
  boot_id           TEXT,
  firmware          TEXT,
  first_seen_utc_ms INTEGER NOT NULL,
  last_seen_utc_ms  INTEGER NOT NULL
) STRICT;

-- One knockout mini-match (Slovenian final) or any other multi-game pairing.
CREATE TABLE matches (
  match_id       TEXT PRIMARY KEY,
  event          TEXT NOT NULL,
  round          INTEGER NOT NULL,
  board          INTEGER NOT NULL,
  player_a       TEXT NOT NULL,
  player_b       TEXT NOT NULL,
  status         TEXT NOT NULL CHECK (status IN ('playing', 'decided')),
  winner         TEXT,
  loser          TEXT,
  decided_by     TEXT CHECK (decided_by IN ('classical', 'rapid', 'armageddon')),
  score_json     TEXT,
  updated_utc_ms INTEGER NOT NULL
) STRICT;

CREATE TABLE games (
  game_id               INTEGER PRIMARY KEY,
  event                 TEXT NOT NULL,
  round                 INTEGER NOT NULL,
  board                 INTEGER NOT NULL,
  game_no               INTEGER NOT NULL DEFAULT 1,
  match_id              TEXT REFERENCES matches (match_id),
  kind                  TEXT NOT NULL,
  white                 TEXT NOT NULL,
  black                 TEXT NOT NULL,
  white_rank            INTEGER,
  black_rank            INTEGER,
  white_team            TEXT,
  black_team            TEXT,
  time_control          TEXT NOT NULL,
  time_control_json     TEXT NOT NULL,
  clock_id              TEXT,
  earliest_start_utc_ms INTEGER,
  ended_utc_ms          INTEGER,
  result                TEXT CHECK (result IN (${sqlList(GAME_RESULTS)})),
  how                   TEXT,
  reported_by           TEXT,
  reported_utc_ms       INTEGER,
  confirmed_by          TEXT,
  confirmed_utc_ms      INTEGER,
  created_utc_ms        INTEGER NOT NULL,
  UNIQUE (event, round, board, game_no)
) STRICT;
CREATE INDEX games_by_round ON games (event, round, board, game_no);
CREATE INDEX games_by_clock ON games (clock_id, game_id);

-- (clock_id, boot_id, seq) names one event for ever: a retransmission or a replay of the
-- clock's outbox after a reconnect hits the UNIQUE key and is not stored twice.
CREATE TABLE clock_events (
  id              INTEGER PRIMARY KEY,
  clock_id        TEXT NOT NULL,
  boot_id         TEXT NOT NULL,
  seq             INTEGER NOT NULL,
  game_id         INTEGER REFERENCES games (game_id),
  event           TEXT,
  round           INTEGER,
  board           INTEGER,
  type            TEXT NOT NULL,
  side            TEXT CHECK (side IN (${sqlList(SIDES)})),
  move            INTEGER,
  white_ms        INTEGER NOT NULL,
  black_ms        INTEGER NOT NULL,
  mono_ms         INTEGER NOT NULL,
  utc_ms          INTEGER NOT NULL,
  uncertainty_ms  INTEGER NOT NULL,
  detail          TEXT,
  UNIQUE (clock_id, boot_id, seq)
) STRICT;
CREATE INDEX clock_events_by_game ON clock_events (game_id, id);
CREATE INDEX clock_events_by_board ON clock_events (event, round, board, id);

-- Who did what, when: every arbiter write, applied or refused (appeals within 30 min).
CREATE TABLE arbiter_actions (
  id        INTEGER PRIMARY KEY,
  utc_ms    INTEGER NOT NULL,
  arbiter   TEXT NOT NULL,
  action    TEXT NOT NULL,
  game_id   INTEGER,
  clock_id  TEXT,
  event     TEXT,
  round     INTEGER,
  board     INTEGER,
  payload   TEXT,
  outcome   TEXT NOT NULL CHECK (outcome IN ('applied', 'rejected')),
  reason    TEXT
) STRICT;

-- Transactional outbox: rows are written in the same transaction as the fact they report,
-- so a crash never publishes a fact that was not journaled nor loses one that was.
-- topic and retain are filled by the MQTT topic hook (JournalOptions.outboxTopic) or by
-- drafts appended through Journal.outboxStore(); rows without a topic are read with pendingOutbox().
CREATE TABLE outbox (
  id               INTEGER PRIMARY KEY,
  kind             TEXT NOT NULL,
  topic            TEXT,
  retain           INTEGER NOT NULL DEFAULT 0,
  payload          TEXT NOT NULL,
  created_utc_ms   INTEGER NOT NULL,
  published_utc_ms INTEGER
) STRICT;
CREATE INDEX outbox_pending ON outbox (id) WHERE published_utc_ms IS NULL;
`;

// Version 2: the results a clock reported besides the one a game holds, and an index the
// arbiter's history of a game reads by.
//
// A clock's result event is journaled as a clock event first (docs/architecture.md rule 9);
// then the host files it here, once per event (event_id UNIQUE: a retransmitted result after
// a host crash is filed once):
//   recorded  it became the game's result (the game had none)
//   agreed    the game already held the same result: nothing changes
//   pending   it differs from the game's result (or the clock had no game: game_id NULL):
//             the arbiter decides, by confirming one (FIDE Laws 8.7: the result stands unless
//             the arbiter decides otherwise); never only a line in a log
//   adopted   the arbiter confirmed this one (resolved_by, resolved_utc_ms)
//   dismissed the arbiter confirmed another one
export const SCHEMA_V2 = `
CREATE TABLE result_reports (
  id              INTEGER PRIMARY KEY,
  event_id        INTEGER UNIQUE REFERENCES clock_events (id),
  clock_id        TEXT,
  game_id         INTEGER REFERENCES games (game_id),
  result          TEXT NOT NULL CHECK (result IN (${sqlList(GAME_RESULTS)})),
  how             TEXT,
  reported_by     TEXT NOT NULL,
  utc_ms          INTEGER NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('recorded', 'agreed', 'pending', 'adopted', 'dismissed')),
  resolved_by     TEXT,
  resolved_utc_ms INTEGER
) STRICT;
CREATE INDEX result_reports_by_game ON result_reports (game_id, id);
CREATE INDEX result_reports_pending ON result_reports (id) WHERE status = 'pending';
CREATE INDEX arbiter_actions_by_game ON arbiter_actions (game_id, id);
`;

// Version 3: a count of the writes to games and result_reports, kept by triggers in
// whichever connection writes them (this host's, or another process's). The host keeps its
// reads of those tables until the count moves (host/store/read-cache.ts): SQLite's
// data_version would tell it of every other connection's commit, and the journal's writer
// thread commits clock events from a connection of its own many times a second
// (docs/host.md "The journal's writer thread").
export const SCHEMA_V3 = `
CREATE TABLE read_generation (
  id  INTEGER PRIMARY KEY CHECK (id = 1),
  n   INTEGER NOT NULL
) STRICT;
INSERT INTO read_generation (id, n) VALUES (1, 0);
${['games', 'result_reports']
  .flatMap((table) =>
    ['INSERT', 'UPDATE', 'DELETE'].map(
      (op) => `CREATE TRIGGER ${table}_${op.toLowerCase()}_generation AFTER ${op} ON ${table} BEGIN UPDATE read_generation SET n = n + 1; END;`,
    ),
  )
  .join('\n')}
`;

// Version 4: a board's current game found by its board. The host asks for it for
// every board of a view (the dashboard's board list, a clock coming online, a command on a
// board); games_by_round (event, round, board, …) could only narrow it to the event, so each
// lookup read every game of the event, and a hall of N boards cost N² rows per board list
// (measured: 300 clocks connecting took 25 s of host CPU, 29% of it in this lookup).
export const SCHEMA_V4 = `
CREATE INDEX games_by_board ON games (event, board, round, game_no);
`;

// Version 5: what left the hall for a broadcast, and when (docs/broadcast.md "The delay"): each
// request pushed to a lichess round, with the games it held and the number of moves of each,
// the instant they were shown as of and the newest journaled fact in them, the delay, and
// lichess's answer (each game's moves or error, or the request's failure). An appeal reads it
// with `chessclock export --broadcast-log` to show that nothing left before its time plus the delay.
export const SCHEMA_V5 = `
CREATE TABLE broadcast_pushes (
  id              INTEGER PRIMARY KEY,
  sent_utc_ms     INTEGER NOT NULL,
  answered_utc_ms INTEGER NOT NULL,
  event           TEXT NOT NULL,
  round           INTEGER NOT NULL,
  lichess_round   TEXT NOT NULL,
  delay_ms        INTEGER NOT NULL,
  as_of_utc_ms    INTEGER NOT NULL,
  newest_utc_ms   INTEGER,
  games           TEXT NOT NULL,
  status          INTEGER,
  message         TEXT
) STRICT;
CREATE INDEX broadcast_pushes_by_event ON broadcast_pushes (event, id);
`;

/** The step from version i to i + 1, for i = 0 … SCHEMA_VERSION − 1. */
export const SCHEMA_STEPS: readonly string[] = [SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5];
