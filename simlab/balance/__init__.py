"""Balance: the inverse questions of a designer.

* :mod:`simlab.balance.unknowns`: what is searched (an input, a rule parameter, a table column) and over what range;
* :mod:`simlab.balance.setup`: the question asked at each value of it (common random numbers when sampled);
* :mod:`simlab.balance.solve`: the value at which a metric reaches a target, or two setups are equal;
* :mod:`simlab.balance.sensitivity`: which of several knobs moves a metric (Morris, then Sobol).

They stand above the requests they ask and below the records of a run; their words, charts and
reports are the output's (:mod:`simlab.output.balance_sentences`, :mod:`simlab.output.balance_report`).
"""
