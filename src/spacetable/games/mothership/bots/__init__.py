"""What Mothership's bots weigh: the evaluation behind ``greedy`` and the search bots' cut-off."""
