"""The estimator framework every learner family is built on (private: the public names are
exported by ``olc.learners``).

- ``estimator``: scikit-learn's estimator protocol without importing scikit-learn; the
  error types ``ParameterError``, ``NotFittedError``.
- ``constraints``: the declarative ``_parameter_constraints``.
- ``validation``: input errors with row and column (``InputError``, ``StreamStoppedError``)
  and the small validators.
- ``features_in``: the X a learner is given, validated as scikit-learn's ``validate_data``.
- ``records``: the batch handed to the compiled loop and the per-row record it writes.
- ``state``: the state arrays a learner owns and the hooks that shape them.
- ``model``: ``OnlineLinearModel``, the contract, with the online protocol
  (``learn_prepared``, written once) and its hooks; ``one_state`` learns a stream into one
  state, ``multiclass`` into K stacked class states (one-vs-rest).
- ``classifier``, ``regressor``: what labels and real-valued targets add.
- ``averaging``: ``average=`` for the learners that take it.
"""
