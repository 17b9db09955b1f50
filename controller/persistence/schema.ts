/**
 * The event log's schema and its migrations. `PRAGMA user_version` holds how many migrations a file has had;
 * opening a file runs the missing ones, each in its own transaction, so a crash mid-migration leaves the file at
 * the previous version. Migrations are only ever appended to this list: a shipped one is never edited.
 */

/** Migration i takes a file from user_version i to i + 1. */
export const MIGRATIONS: readonly string[] = [
  // 1: games, the append-only log, snapshots.
  `
  CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    table_id    TEXT    NOT NULL,
    game        TEXT    NOT NULL,
    config      TEXT    NOT NULL,            -- JSON, as given to engine.setup
    seed        TEXT    NOT NULL,            -- JSON (a number or a string), so the type survives
    started_at  INTEGER NOT NULL,            -- wall clock, ms since 1970
    ended_at    INTEGER,                     -- NULL while the game runs
    result      TEXT                         -- JSON GameResult, set by endGame
  );
  CREATE INDEX games_by_table ON games (table_id, id);
  CREATE INDEX games_unfinished ON games (table_id) WHERE ended_at IS NULL;

  CREATE TABLE log (
    seq            INTEGER PRIMARY KEY,      -- total order of everything the controller logged
    table_id       TEXT    NOT NULL,
    game_id        INTEGER REFERENCES games (id),  -- NULL: between games
    kind           TEXT    NOT NULL CHECK (kind IN ('sensor', 'action', 'rejected', 'correction', 'system')),
    at_wall_ms     INTEGER NOT NULL,         -- wall clock when logged, ms since 1970
    host_us        INTEGER,                  -- controller monotonic µs (sensor: device time mapped)
    payload        TEXT    NOT NULL,         -- JSON; see rows.ts for each kind
    -- sensor rows only, so a dispute can be settled from the raw stamps:
    station        TEXT,
    time_source    TEXT,                     -- 'device' | 'host'
    epoch          INTEGER,                  -- station boot the stamp belongs to
    raw_us         INTEGER,                  -- the 32-bit micros() value from the line
    device_us      INTEGER,                  -- unwrapped device µs within the epoch
    uncertainty_us REAL                      -- half width of the mapped interval; NULL = not yet synced (infinite)
  );
  CREATE INDEX log_by_game ON log (game_id, kind, seq);
  CREATE INDEX log_sensors_by_time ON log (table_id, host_us) WHERE kind = 'sensor';

  -- Append-only: rows are never changed or removed, not even by a bug or a hand-typed query.
  CREATE TRIGGER log_no_update BEFORE UPDATE ON log
    BEGIN SELECT RAISE(ABORT, 'LOG_APPEND_ONLY: log rows cannot be updated'); END;
  CREATE TRIGGER log_no_delete BEFORE DELETE ON log
    BEGIN SELECT RAISE(ABORT, 'LOG_APPEND_ONLY: log rows cannot be deleted'); END;

  -- A game's identity never changes; only ending it (once) fills ended_at and result.
  CREATE TRIGGER games_no_delete BEFORE DELETE ON games
    BEGIN SELECT RAISE(ABORT, 'LOG_APPEND_ONLY: games cannot be deleted'); END;
  CREATE TRIGGER games_identity BEFORE UPDATE OF id, table_id, game, config, seed, started_at ON games
    BEGIN SELECT RAISE(ABORT, 'LOG_APPEND_ONLY: a game''s identity cannot be changed'); END;
  CREATE TRIGGER games_end_once BEFORE UPDATE OF ended_at, result ON games WHEN OLD.ended_at IS NOT NULL
    BEGIN SELECT RAISE(ABORT, 'LOG_APPEND_ONLY: a finished game cannot be changed'); END;

  -- Snapshots speed up recovery of long games; they are a cache of the log, verified against it in tests.
  CREATE TABLE snapshots (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    seq          INTEGER NOT NULL,           -- the last action row the state includes
    action_count INTEGER NOT NULL,           -- applied actions (minus undone ones) the state includes
    state        TEXT    NOT NULL,           -- JSON engine state
    PRIMARY KEY (game_id, seq)
  );
  CREATE TRIGGER snapshots_no_update BEFORE UPDATE ON snapshots
    BEGIN SELECT RAISE(ABORT, 'LOG_APPEND_ONLY: snapshots cannot be updated'); END;
  CREATE TRIGGER snapshots_no_delete BEFORE DELETE ON snapshots
    BEGIN SELECT RAISE(ABORT, 'LOG_APPEND_ONLY: snapshots cannot be deleted'); END;
  `,
  // 2: the answers to MQTT requests with a transaction id, so a repeat is answered from here instead of running
  // again, also after a restart. Not part of the append-only log: rows older than the idempotency window are
  // pruned.
  `
  CREATE TABLE answers (
    key        TEXT    PRIMARY KEY,          -- table, client, request, identity, transaction (transaction-cache.ts)
    table_id   TEXT    NOT NULL,
    at_wall_ms INTEGER NOT NULL,             -- when it was answered
    response   TEXT    NOT NULL              -- the response JSON, as it was published
  );
  CREATE INDEX answers_by_time ON answers (at_wall_ms);
  `,
  // 3: the interval in which a sensor event physically happened, around its device stamp (docs/timing.md §3):
  // [device_us − before_us, device_us + after_us] before the mapping's uncertainty. NULL in rows written before
  // this migration: the controller then took the stamp alone, and reading them back gives 0 (what it used).
  `
  ALTER TABLE log ADD COLUMN before_us REAL;
  ALTER TABLE log ADD COLUMN after_us REAL;
  `,
  // 4: every public event exactly as it was published (after the public filter), numbered per table and
  // controller start, so a viewer that missed some (the venue during a network cut) gets them from here,
  // never a hole (docs/venue-offline.md). Only public text is stored: what any spectator could see.
  `
  CREATE TABLE public_events (
    table_id   TEXT    NOT NULL,
    epoch      INTEGER NOT NULL,             -- the controller start the event belongs to (ms since 1970)
    seq        INTEGER NOT NULL,             -- the event's seq within (table_id, epoch), from 1
    at_wall_ms INTEGER NOT NULL,             -- the event's own at
    payload    TEXT    NOT NULL              -- the JSON published on <base>/<table>/events
  );
  -- One number per event; also the order history is read in.
  CREATE UNIQUE INDEX public_events_by_seq ON public_events (table_id, epoch, seq);
  CREATE TRIGGER public_events_no_update BEFORE UPDATE ON public_events
    BEGIN SELECT RAISE(ABORT, 'LOG_APPEND_ONLY: public events cannot be updated'); END;
  CREATE TRIGGER public_events_no_delete BEFORE DELETE ON public_events
    BEGIN SELECT RAISE(ABORT, 'LOG_APPEND_ONLY: public events cannot be deleted'); END;
  `,
];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;
