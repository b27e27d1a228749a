"""Persistence: a game is its deal code plus its action log; everything else is derived.

Only game/services/ writes these rows, so no path forgets a check or a broadcast.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from game.domain.display_names import display_name_skeleton
from game.engine.fairplay import REASONS


class Theme(models.TextChoices):
    """The site's colours: the device's own setting, or always light or dark."""

    SYSTEM = "system", _("System")
    LIGHT = "light", _("Light")
    DARK = "dark", _("Dark")


class Profile(models.Model):
    """The public face of an account: the name shown on leaderboards and in races."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    display_name = models.CharField(max_length=30, unique=True)
    # Unique, so that two look-alike names claimed at the same moment cannot both be stored.
    # Null only for the later of two look-alikes that were both taken before the rule.
    name_skeleton = models.CharField(max_length=255, unique=True, null=True, editable=False)
    # The site's look on every device the player logs in on (a visitor's browser keeps its own).
    theme = models.CharField(max_length=6, choices=Theme.choices, default=Theme.SYSTEM)

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args, **kwargs) -> None:
        self.name_skeleton = display_name_skeleton(self.display_name)
        super().save(*args, **kwargs)


class Guest(models.Model):
    """A visitor playing without an account, for as long as their browser session lasts.

    A guest is a user row that cannot log in (no usable password, a username no sign-up can
    take), so their games, results and sockets are owned and refereed exactly as an account's.
    They have no Profile, so no public name; no board lists them (game.selectors.leaderboards).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="guest"
    )
    session_key = models.CharField(max_length=40, unique=True)  # the session they play in
    created_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"guest {self.user_id}"


class DailyDeal(models.Model):
    """The deal everyone plays on one day, certified winnable by the solver."""

    date = models.DateField(unique=True)
    code = models.CharField(max_length=16, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Voided on review (a bad deal): the day's results stay the players' history but leave
    # every board. Null while it stands; clearing it undoes the voiding.
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.CharField(max_length=200, blank=True)
    rated_at = models.DateTimeField(null=True, blank=True)  # its day's ratings were applied

    class Meta:
        ordering = ["-date"]

    def __str__(self) -> str:
        return f"{self.date} {self.code}"


class Game(models.Model):
    """One player's game of one deal code."""

    class Status(models.TextChoices):
        OPEN = "open", "open"
        WON = "won", "won"
        RESIGNED = "resigned", "resigned"  # ended by its player: resign, or a new game over it

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    code = models.CharField(max_length=16, db_index=True)
    daily = models.ForeignKey(DailyDeal, null=True, blank=True, on_delete=models.PROTECT)
    ranked = models.BooleanField(default=False)  # the player's first game of a daily deal
    status = models.CharField(max_length=10, choices=Status, default=Status.OPEN)
    # When the deal was first shown to the player: for a ranked daily game, the moment they
    # pressed Start (null until then, so opening the page starts no clock).
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The highest client seq whose action is stored: a resent seq is applied once.
    last_seq = models.BigIntegerField(default=0)
    # How many actions the log holds; the next action's index.
    action_count = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(fields=["player", "status"]),
            models.Index(fields=["player", "code", "-started_at"]),
        ]
        constraints = [
            # One open game per player and code makes "resume or start" race-safe.
            models.UniqueConstraint(
                fields=["player", "code"],
                condition=models.Q(status="open"),
                name="one_open_game_per_player_and_code",
            ),
            models.UniqueConstraint(
                fields=["player", "daily"],
                condition=models.Q(ranked=True),
                name="one_ranked_game_per_player_and_daily_deal",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} by {self.player} ({self.status})"


class Action(models.Model):
    """One entry of a game's log, in order: a tap target, "undo", or a settings change.

    `action` holds exactly what `game.engine.replay` takes: an int 1-25 as text, "stock",
    "waste", "undo", "help-on" or "help-off".
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    index = models.PositiveIntegerField()
    action = models.CharField(max_length=10)
    at = models.DateTimeField()

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="one_action_per_log_index")
        ]


class Result(models.Model):
    """A completed game as the server's own replay saw it; never written from client input."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="result")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    code = models.CharField(max_length=16, db_index=True)
    daily = models.ForeignKey(DailyDeal, null=True, blank=True, on_delete=models.PROTECT)
    ranked = models.BooleanField(default=False)
    won = models.BooleanField()
    score = models.PositiveSmallIntegerField()
    moves = models.PositiveIntegerField()
    undos = models.PositiveIntegerField()
    placement_help = models.BooleanField()  # placement help was on for some move
    duration_ms = models.PositiveBigIntegerField()
    finished_at = models.DateTimeField()
    # Voided on review of its flags: off every board and out of streaks, kept in its player's
    # history. Null while it stands; clearing it undoes the voiding. Never set automatically.
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-score", "duration_ms", "moves", "finished_at"]
        indexes = [
            models.Index(fields=["daily", "ranked", "-score", "duration_ms", "moves"]),
            models.Index(fields=["code", "-score", "duration_ms", "moves"]),
        ]

    @property
    def clean(self) -> bool:
        """A clean run: no undo and no placement help."""
        return self.undos == 0 and not self.placement_help


class Follow(models.Model):
    """One player follows another: one-way, no approval. Their following boards show both."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created = models.DateTimeField()

    class Meta:
        ordering = ["-created", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="one_follow_per_pair"),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followed")), name="no_self_follow"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.follower} follows {self.followed}"


# Live boards, presence and race rooms. Only game/services/ writes these rows, as it
# does the ordinary Games a race plays.


class BoardVersion(models.Model):
    """A live leaderboard's sequence number: bumped with each result it shows, in the result's
    transaction, so a client that sees a gap knows it missed an update."""

    # "daily:<YYYY-MM-DD>", "deal:<code>" or "all-time"
    board = models.CharField(max_length=40, unique=True)
    version = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.board} v{self.version}"


class Presence(models.Model):
    """One open socket that others count: a player's board, or a spectator of a game.

    Each server process refreshes `seen_at` of its own rows; rows of a process that died go
    stale and stop counting, so every process reads the same numbers from the database.
    """

    class Kind(models.TextChoices):
        PLAY = "play", "play"
        WATCH = "watch", "watch"

    channel = models.CharField(max_length=160, unique=True)
    process = models.CharField(max_length=32, db_index=True)
    kind = models.CharField(max_length=5, choices=Kind)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE)
    seen_at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["kind", "game", "seen_at"])]


class RaceRoom(models.Model):
    """A race: 2-8 players play one deal from the same server instant; first to clear wins."""

    class Status(models.TextChoices):
        LOBBY = "lobby", "lobby"  # joining and getting ready
        RUNNING = "running", "running"  # counting down to starts_at, then racing
        FINISHED = "finished", "finished"  # every racer has a result: the table is final
        EXPIRED = "expired", "expired"  # left idle in the lobby

    room = models.CharField(max_length=8, unique=True)  # the short code people share
    code = models.CharField(max_length=16)
    fresh = models.BooleanField(default=False)  # a random deal: its code shows at the start
    # Null once its creator deleted their account: the room stays for the other racers.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    status = models.CharField(max_length=10, choices=Status, default=Status.LOBBY)
    created_at = models.DateTimeField()
    touched_at = models.DateTimeField(db_index=True)  # the last change, for idle expiry
    starts_at = models.DateTimeField(null=True, blank=True)  # every racer's clock starts here
    finished_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)  # bumped with every change
    quick = models.BooleanField(default=False)  # matched by the quick race: starts by itself
    # The room its racers' "Race again" opened: the old room links to it, its table stays.
    rematch = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )

    def __str__(self) -> str:
        return f"race {self.room} ({self.status})"


class RaceEntry(models.Model):
    """One racer in a room; `game` is their race game, created at the start instant."""

    room = models.ForeignKey(RaceRoom, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    joined_at = models.DateTimeField()
    ready = models.BooleanField(default=False)
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="race_entry"
    )

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["room", "player"], name="one_entry_per_player_and_room")
        ]


# Fair play (game/engine/fairplay.py): flags ask a person to review a result; they change nothing.


class ResultFlag(models.Model):
    """A reason to review a result: its stored log looked implausible for a person (its
    timing), or showed the stock read by undoing draws.

    Written by the server when the result is stored (and by `audit_results` for older ones);
    a flag never changes the result, its game or any board.
    """

    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="flags")
    reason = models.CharField(max_length=20, choices=REASONS)
    detail = models.CharField(max_length=200)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["result", "reason"], name="one_flag_per_reason")
        ]
        ordering = ["-created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.reason} on result {self.result_id}"


# Par (game.engine.min_moves): computed once per deal code and kept.


class DealPar(models.Model):
    """The fewest moves that win a deal code's deal, once computed; `par` is null for a deal
    that cannot be won. A daily deal's is stored when the day's deal is certified, any other
    code's after a game of it ends (game.runtime.par_searcher)."""

    code = models.CharField(max_length=16, unique=True)
    par = models.PositiveSmallIntegerField(null=True)
    computed_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.code} par {self.par}"


# One ranked attempt a day per e-mail address, across accounts (docs/deployment.md, "Privacy").


class DailyStartMark(models.Model):
    """An e-mail address whose account pressed Start on a day's ranked game: kept as a keyed
    hash of the normalised address, never the address, and deleted once the day has ended."""

    date = models.DateField(db_index=True)
    address_hash = models.CharField(max_length=64)  # HMAC-SHA-256, hex

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["date", "address_hash"], name="one_mark_per_day_address"
            )
        ]


# Sessions by account, so that ending a player's sessions reads only theirs.


class PlayerSession(models.Model):
    """A stored session that logged in as `user`: written at login, so ending every session of
    an account reads its own keys instead of decoding every session of the site."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="stored_sessions"
    )
    session_key = models.CharField(max_length=40, unique=True)
    created_at = models.DateTimeField()


class ServerBeat(models.Model):
    """A stretch of time in which one server process beat steadily: `since` its first beat,
    `until` its latest. A beat that comes too long after the last starts a new stretch, so
    the gaps between every process's stretches are the outages (game.selectors.outages)."""

    process = models.CharField(max_length=32)
    since = models.DateTimeField(db_index=True)
    until = models.DateTimeField(db_index=True)


# Competition: Glicko-2 ratings of players and daily deals, and the quick race's queue.


class RatingKind(models.TextChoices):
    DAILY = "daily", _("Daily")
    RACE = "race", _("Race")


class Rating(models.Model):
    """A player's current Glicko-2 rating of one kind; no row means never rated."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    kind = models.CharField(max_length=5, choices=RatingKind.choices)
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    games = models.PositiveIntegerField(default=0)  # rating periods with games
    rated_at = models.DateTimeField()  # the end of its latest period: RD grows from here

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "kind"], name="one_rating_per_kind")
        ]
        indexes = [models.Index(fields=["kind", "rating"])]


class RatingChange(models.Model):
    """One rating period's outcome for one player: a day (`date`) or a race (`room`)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    kind = models.CharField(max_length=5, choices=RatingKind.choices)
    at = models.DateTimeField()
    rating = models.FloatField()  # after the period
    deviation = models.FloatField()
    delta = models.FloatField()  # rating after minus rating before
    date = models.DateField(null=True, blank=True)
    room = models.ForeignKey(
        RaceRoom, null=True, blank=True, on_delete=models.SET_NULL, related_name="rating_changes"
    )

    class Meta:
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["player", "kind", "at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "kind", "date"], name="one_daily_change_per_day"
            ),
            models.UniqueConstraint(fields=["player", "room"], name="one_change_per_race"),
        ]


class DealRating(models.Model):
    """A daily deal's difficulty on the players' rating scale: seeded from the solver, then
    corrected by the day's ranked results as a rated opponent."""

    daily = models.OneToOneField(DailyDeal, on_delete=models.CASCADE, related_name="rating")
    seed = models.FloatField()
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    rated_at = models.DateTimeField(null=True, blank=True)  # corrected by the day's results


class QuickEntry(models.Model):
    """A player waiting in the quick race's queue: a lease that its socket's process renews,
    so that a killed process's entries expire by themselves. `room` is set once matched."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quick_entry"
    )
    rating = models.FloatField()  # the Race rating it is matched by
    joined_at = models.DateTimeField()
    lease_until = models.DateTimeField(db_index=True)
    channel = models.CharField(max_length=160)
    room = models.ForeignKey(RaceRoom, null=True, blank=True, on_delete=models.CASCADE)
