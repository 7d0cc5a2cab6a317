// The commented tournament file `chessclock tournament init` writes, and docs/tournament.md
// shows (tournament-template.test.ts loads both): JSON with comments, valid as it stands.
// Two events in one hall: a knockout whose final is played by the semifinal winners (the
// Slovenian women's final 2007) and a team event played as a round robin by the FIDE Berger
// tables (the Ivanovo regulation with 8 teams or fewer). Names, ratings and ids are examples.

export const TOURNAMENT_TEMPLATE = `// Tournament file (docs/tournament.md). JSON with // and /* */ comments.
// Check it with: chessclock tournament validate FILE
{
  "hall": { "name": "Šahovski dom", "site": "Ljubljana SLO" },  // PGN Site: "City FED"
  "events": [
    {
      "id": "final-2007",                     // the event's key in the journal, the API and the exports
      "name": "Women's championship final",   // TRF tag 012, PGN Event
      "city": "Ljubljana", "federation": "SLO",
      "startDate": "2007/08/16", "endDate": "2007/08/19",
      "chiefArbiter": "Ana Srebrnič",
      "kind": "knockout",                     // "individual" | "knockout" | "team"
      "type": "Knockout",                     // TRF tag 092, free text
      "timeControl": "classical",             // a preset, or { "preset" | "timeControl" | "white"+"black", "defaultTime", "incrementTiming" }
      "hallFirstTable": 1,                    // event board b stands at hall table hallFirstTable + b - 1
      "appeal": { "minutes": 30, "from": "result" },  // appeals within 30 minutes of the arbiter's decision
      // Tie-breaks of a mini-match: rapid games after the break, then the armageddon. Colours
      // "by lot" are drawn when due (or entered by the arbiter); a "seed" here is for rehearsals only.
      "knockout": { "breakBeforeRapidMinutes": 30, "breakBetweenRapidMinutes": 0, "breakBeforeArmageddonMinutes": 0 },
      "players": [
        { "rank": 1, "name": "Rožič, Vesna", "sex": "w", "title": "WIM", "rating": 2250, "federation": "SLO", "fideId": 90000001 },
        { "rank": 2, "name": "Bajt, Indira", "sex": "w", "rating": 2180, "federation": "SLO" },
        { "rank": 3, "name": "Tretja, Igralka", "sex": "w", "rating": 2100, "federation": "SLO" },
        { "rank": 4, "name": "Četrta, Igralka", "sex": "w", "rating": 2050, "federation": "SLO" }
      ],
      "rounds": [
        { "number": 1, "date": "2007/08/16", "start": "2007-08-16T16:00:00+02:00",
          "knockout": [
            { "board": 1, "players": [1, 4], "firstWhite": 1 },   // firstWhite left out: drawn by lot
            { "board": 2, "players": [2, 3] }
          ] },
        { "number": 2, "date": "2007/08/18",
          "knockout": [
            // The final: the winners of the semifinals, known once those are decided.
            { "board": 1, "players": [{ "winnerOf": { "round": 1, "board": 1 } }, { "winnerOf": { "round": 1, "board": 2 } }] }
          ] }
      ]
    },
    {
      "id": "team-2018",
      "name": "School team championship",
      "city": "Ivanovo", "federation": "RUS",
      "kind": "team", "type": "Team round robin",
      "timeControl": { "preset": "sudden-death-60", "defaultTime": 900 },  // 15 minutes' allowed lateness
      "hallFirstTable": 11,
      "boardsPerTeam": 4,
      // Board points first; a team without an opponent: 1 match point, ½ per board.
      "teamScoring": { "win": 2, "draw": 1, "loss": 0, "byeMatchPoints": 1, "byePointsPerPlayer": 0.5 },
      "plannedRounds": 3,                     // TRF tag 142 / XXR: a round robin of 4 teams has 3
      "roundRobinUpTo": 8,                    // 8 teams or fewer: the director pairs by the FIDE Berger tables
      "appeal": { "minutes": 15, "from": "round-end" },
      // A live broadcast to lichess (docs/broadcast.md), once its rounds exist there (needs a token):
      // "broadcast": { "moves": "/srv/livechess/teams/", "delay": 900, "rounds": { "1": "AbCd1234", "2": "EfGh5678" } },
      "players": [
        { "rank": 1, "name": "Shkola1, Igrok1" }, { "rank": 2, "name": "Shkola1, Igrok2" }, { "rank": 3, "name": "Shkola1, Igrok3" }, { "rank": 4, "name": "Shkola1, Igrok4" },
        { "rank": 5, "name": "Shkola2, Igrok1" }, { "rank": 6, "name": "Shkola2, Igrok2" }, { "rank": 7, "name": "Shkola2, Igrok3" }, { "rank": 8, "name": "Shkola2, Igrok4" },
        { "rank": 9, "name": "Shkola3, Igrok1" }, { "rank": 10, "name": "Shkola3, Igrok2" }, { "rank": 11, "name": "Shkola3, Igrok3" }, { "rank": 12, "name": "Shkola3, Igrok4" },
        { "rank": 13, "name": "Shkola4, Igrok1" }, { "rank": 14, "name": "Shkola4, Igrok2" }, { "rank": 15, "name": "Shkola4, Igrok3" }, { "rank": 16, "name": "Shkola4, Igrok4" }
      ],
      // Teams in the order drawn by lot (their Berger numbers); players in board order.
      "teams": [
        { "id": 1, "name": "Школа № 1", "nickname": "SH1", "players": [1, 2, 3, 4] },
        { "id": 2, "name": "Школа № 2", "nickname": "SH2", "players": [5, 6, 7, 8] },
        { "id": 3, "name": "Школа № 3", "nickname": "SH3", "players": [9, 10, 11, 12] },
        { "id": 4, "name": "Школа № 4", "nickname": "SH4", "players": [13, 14, 15, 16] }
      ]
      // No "rounds": a round robin's rounds come from the Berger tables. A Swiss lists them
      // ("teamMatches" per round, or "boards" in an individual event) or imports a pairing program's TRF.
    }
  ]
}
`;
