"""Rate budgets: one budget of requests per key (a provider's key, the model's key, a web host
for politeness), shared by every caller that uses it (decisions: Rate budgets; Rate budgets past one
machine).

- :mod:`webtap.budget.rate`: :class:`~webtap.budget.rate.RateBudget`, what callers use, and
  :func:`~webtap.budget.rate.budget_store`, the store ``WEBTAP_BUDGET`` names;
- :mod:`webtap.budget.steps`: the two steps every store runs (book a slot, record the send);
- :mod:`webtap.budget.store`: what a store is; :mod:`webtap.budget.file_store` (one machine),
  :mod:`webtap.budget.ray_store` (one Ray cluster), :mod:`webtap.budget.redis_store` (any
  engine) keep the state.

Importing this package imports nothing: callers name the module they need.
"""
