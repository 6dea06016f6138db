// The score shown at a one-player table, chosen per game in this browser (a setting of the web
// app, not an option of the rules): the server works each scoring out from the game's moves
// (patience/scoring.py; the formulas are in docs/web.md, "Score and time").

/** Per game, its scorings as [key, label]; the first is the default. */
export const SCORINGS = {
  klondike: [["standard", "Standard"], ["vegas", "Vegas"], ["none", "None: time and moves"]],
  spider: [["spider", "500, less 1 a move, plus 100 a suit"], ["none", "None: time and moves"]],
};

export const scoringKey = (game) => `patience.scoring.${game}`;

/** The scoring chosen for `game` in this browser (the default if none or no longer known). */
export function chosenScoring(game) {
  const choices = SCORINGS[game];
  if (!choices) return null;
  const stored = localStorage.getItem(scoringKey(game));
  return choices.some(([key]) => key === stored) ? stored : choices[0][0];
}

/** The score to show for a table's state ("Score 120", "Vegas $-32"), or "" for none. */
export function scoreText(state) {
  const scoring = chosenScoring(state.game);
  const value = state.scores?.[scoring];
  if (scoring === null || scoring === "none" || value === undefined) return "";
  return scoring === "vegas" ? `Vegas $${value}` : `Score ${value}`;
}
