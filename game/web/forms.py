"""Forms of the site: sign up with a public display name, rename, and open a deal by its code."""

from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.validators import RegexValidator
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from game.display_names import (
    display_name_mixed_scripts,
    display_name_normal,
    display_name_skeleton,
)
from game.engine import ParseError, parse_code
from game.models import Profile
from game.web import throttle

# Letters, digits, "_", "-" and "."; no spaces or slashes, so a name is its own URL.
display_name_validator = RegexValidator(
    r"^[\w.-]+\Z",
    _("Use letters, digits, dots, dashes and underscores only."),
)


def validate_one_script(name: str) -> None:
    """Letters of two alphabets make a name that reads as another ("Zеlda", a Cyrillic е)."""
    scripts = display_name_mixed_scripts(name)
    if scripts:
        message = _("Write a display name in one alphabet; this one mixes %(scripts)s.")
        params = {"scripts": ", ".join(scripts)}
        raise forms.ValidationError(message, code="mixed_scripts", params=params)


class DisplayNameField(forms.CharField):
    """A display name, in the form it is stored and shown in (game.display_names)."""

    def __init__(self) -> None:
        super().__init__(
            label=_("Display name"),
            min_length=3,
            max_length=Profile._meta.get_field("display_name").max_length,
            validators=[display_name_validator, validate_one_script],
            help_text=_("Shown on leaderboards. Your username stays private."),
        )

    def to_python(self, value) -> str:
        return display_name_normal(super().to_python(value))


def clean_unique_display_name(name: str, profile: Profile | None = None) -> str:
    """Names differing only by case, or looking alike, would let one player pass for another."""
    others = Profile.objects.exclude(pk=profile.pk) if profile is not None else Profile.objects
    if others.filter(display_name__iexact=name).exists():
        raise forms.ValidationError(_("That display name is taken."), code="taken")
    look_alike = others.filter(name_skeleton=display_name_skeleton(name)).first()
    if look_alike is not None:
        message = _("That display name looks like %(name)s, which is taken.")
        params = {"name": look_alike.display_name}
        raise forms.ValidationError(message, code="look_alike", params=params)
    return name


def save_unless_taken(form: forms.ModelForm):
    """The form's save; or None if its name was claimed after the check (the form says so).

    The database refuses a second name of one skeleton, so of two look-alikes claimed at once
    one is stored; validating again tells the other which name took it.
    """
    try:
        with transaction.atomic():
            return form.save()
    except IntegrityError:
        form.full_clean()
        if form.is_valid():
            raise
        return None


class SignupForm(UserCreationForm):
    """Django's own account form plus the public display name; game.web.throttle limits how many
    accounts one address makes."""

    display_name = DisplayNameField()
    error_messages = {
        **UserCreationForm.error_messages,
        "throttled": _(
            "Too many accounts were made from your address. Wait %(minutes)d minutes, "
            "then try again."
        ),
    }

    class Meta(UserCreationForm.Meta):
        fields = ("username", "display_name")

    def __init__(self, *args, address: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.address = address

    def clean(self):
        if throttle.signup_blocked(address=self.address):
            minutes = -(-settings.SIGNUP_THROTTLE_SECONDS // 60)
            message = self.error_messages["throttled"]
            raise forms.ValidationError(message, code="throttled", params={"minutes": minutes})
        return super().clean()

    def clean_display_name(self) -> str:
        return clean_unique_display_name(self.cleaned_data["display_name"])

    @transaction.atomic
    def save(self):
        user = super().save()
        Profile.objects.create(user=user, display_name=self.cleaned_data["display_name"])
        throttle.signed_up(address=self.address)
        return user


class LoginForm(AuthenticationForm):
    """Django's login form; while game.web.throttle holds the username or address, it says so."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "throttled": _("Too many failed logins. Wait %(minutes)d minutes, then try again."),
    }

    def clean(self):
        username = self.cleaned_data.get("username")
        address = throttle.client_address(self.request)
        if throttle.login_blocked(username=username, address=address):
            minutes = -(-settings.LOGIN_THROTTLE_SECONDS // 60)
            message = self.error_messages["throttled"]
            raise forms.ValidationError(message, code="throttled", params={"minutes": minutes})
        return super().clean()


class DisplayNameForm(forms.ModelForm):
    """Change (or, for an account made elsewhere, choose) the public display name."""

    display_name = DisplayNameField()

    class Meta:
        model = Profile
        fields = ("display_name",)

    def clean_display_name(self) -> str:
        profile = self.instance if self.instance.pk else None
        return clean_unique_display_name(self.cleaned_data["display_name"], profile)


class DealCodeForm(forms.Form):
    """A deal code typed by hand: any case, any spaces; the clean value is canonical."""

    code = forms.CharField(
        label=_("Deal code"),
        max_length=40,
        widget=forms.TextInput(
            attrs={"placeholder": "HH1-N-ABCDEFG", "autocapitalize": "characters"}
        ),
    )

    def clean_code(self) -> str:
        try:
            return parse_code(self.cleaned_data["code"])
        except ParseError as error:
            raise forms.ValidationError(str(error), code="malformed") from error


class AccountDeleteForm(forms.Form):
    """Deleting an account asks for its password: a session left open on a shared computer
    must not be enough to erase someone."""

    password = forms.CharField(label=_("Your password"), strip=False, widget=forms.PasswordInput)

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."), code="wrong_password")
        return password
