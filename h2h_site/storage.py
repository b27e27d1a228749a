"""Static files in production: hashed names for the board's ES modules too."""

from django.utils import timezone
from whitenoise.storage import CompressedManifestStaticFilesStorage

# When this process started: the newest any deployed file (a catalogue, say) can be.
DEPLOYED_AT = timezone.now()


class ModuleAwareStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Rewrites `import ... from "./x.js"` to the hashed name, so modules cache forever."""

    support_js_module_import_aggregation = True
