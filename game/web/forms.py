"""Forms of the site: allauth's account forms in our words with the public display name,
renaming, a new e-mail address, and opening a deal by its code."""

from allauth.account import forms as allauth_forms
from django import forms
from django.core.validators import RegexValidator
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from game.domain.deal_codes import code_parse
from game.domain.display_names import (
    display_name_mixed_scripts,
    display_name_normal,
    display_name_skeleton,
)
from game.domain.errors import GameError
from game.models import Profile

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
    """A display name, in the form it is stored and shown in (game.domain.display_names)."""

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


def _in_our_words(form: forms.Form, labels: dict) -> None:
    """allauth's fields with our labels (so in Malay too) and no English placeholders."""
    for name, label in labels.items():
        if name in form.fields:
            form.fields[name].label = label
            form.fields[name].widget.attrs.pop("placeholder", None)


PASSWORD_LABELS = {
    "oldpassword": _("Current password"),
    "password1": _("New password"),
    "password2": _("New password (again)"),
}


class SignupForm(allauth_forms.SignupForm):
    """allauth's sign-up (username, e-mail, password twice) plus the public display name."""

    display_name = DisplayNameField()
    field_order = ["username", "email", "display_name", "password1", "password2"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        labels = {"username": _("Username"), "email": _("E-mail")}
        _in_our_words(
            self, labels | {"password1": _("Password"), "password2": _("Password (again)")}
        )
        self.fields["email"].help_text = _("Only for getting back in if you forget your password.")

    def clean_display_name(self) -> str:
        return clean_unique_display_name(self.cleaned_data["display_name"])

    def custom_signup(self, request, user) -> None:
        Profile.objects.create(user=user, display_name=self.cleaned_data["display_name"])


class LoginForm(allauth_forms.LoginForm):
    """allauth's login by username or e-mail."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _in_our_words(self, {"login": _("Username or e-mail"), "password": _("Password")})
        self.fields["password"].help_text = ""  # allauth's English link: the page has ours


class ResetPasswordForm(allauth_forms.ResetPasswordForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _in_our_words(self, {"email": _("E-mail")})


class ResetPasswordKeyForm(allauth_forms.ResetPasswordKeyForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _in_our_words(self, PASSWORD_LABELS)


class ChangePasswordForm(allauth_forms.ChangePasswordForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _in_our_words(self, PASSWORD_LABELS)


class EmailForm(forms.Form):
    """A new e-mail address for the account, with its password: a session left open, or
    stolen, must not be enough to move where a password reset goes. Whether another account
    uses the address is not said here (AccountAdapter.send_email_change_mail)."""

    email = forms.EmailField(label=_("New e-mail address"))
    password = forms.CharField(label=_("Your password"), strip=False, widget=forms.PasswordInput)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_email(self) -> str:
        """Stored in lower case, as at sign-up."""
        email = self.cleaned_data["email"].lower()
        if email == self.user.email.lower():
            raise forms.ValidationError(_("That is your address already."), code="unchanged")
        return email

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."), code="wrong_password")
        return password


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
            return code_parse(code=self.cleaned_data["code"])
        except GameError as error:
            raise forms.ValidationError(error.message, code="malformed") from error


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
