"""What the writes (game/services/) and the reads (game/selectors/) both speak, below them
beside the models: the refusals' codes and texts, deal codes as the site takes them, and the
rules of a display name."""
