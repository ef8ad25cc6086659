"""Balance: the inverse questions of a designer.

* :mod:`simlab.balance.unknowns`: what is searched (an input, a rule parameter, a table column) and over what range;
* :mod:`simlab.balance.setup`: the question asked at each value of it (common random numbers when sampled);
* :mod:`simlab.balance.solve`: the value at which a metric reaches a target, or two setups are equal;
* :mod:`simlab.balance.sensitivity`: which of several knobs moves a metric (Morris, then Sobol).
"""
