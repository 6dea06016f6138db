"""The games in the game-AI ecosystem: adapters to Gymnasium (one-player games), PettingZoo
(Leopard and Double Solitaire) and OpenSpiel (every game).

Each adapter is its own module with its own optional extra, so that importing :mod:`patience`
never needs numpy or any of these libraries:

* :mod:`patience.envs.gymnasium` (``pip install patience[gymnasium]``): ids like
  ``patience/Klondike-v0``, registered when the module is imported;
* :mod:`patience.envs.pettingzoo` (``pip install patience[pettingzoo]``): AEC environments;
* :mod:`patience.envs.openspiel` (``pip install patience[openspiel]``): OpenSpiel Python games
  named ``patience_klondike`` and so on, registered by :func:`~patience.envs.openspiel.register`.

They talk to the games only through the engine's API (:class:`patience.Rules`,
:class:`patience.Game`, views and the fixed action space of docs/notation.md, "Action
numbers"); the observations are built from a seat's view (:mod:`patience.envs.observation`),
so no hidden card ever reaches an agent. docs/bots.md shows them in use.
"""
