"""Opening script screen (seed 003): the day's market themes and a two-host broadcast script."""
