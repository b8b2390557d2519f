"""The harness's commands: modules with ``HELP``, ``add_arguments(parser)`` and ``run(args)``, which the engine's
``fsmdial`` finds through this distribution's entry points (eval/pyproject.toml). ``eval sgd``, ``eval multiwoz`` and
``import sgd`` are their own modules' (:mod:`fsmdial_eval.sgd`, :mod:`fsmdial_eval.multiwoz_turns`,
:mod:`fsmdial_eval.importers.sgd`)."""
