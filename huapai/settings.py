"""The one settings module, driven by environment variables.

SECRET_KEY, DEBUG, ALLOWED_HOSTS, DATABASE_URL (SQLite at var/db.sqlite3 when
unset), CSRF_TRUSTED_ORIGINS, SECURE_SSL_REDIRECT, TRUSTED_PROXIES.

DEBUG is off unless the environment turns it on: `manage.py` (and so
`make run`) turns it on for development, the WSGI entry point never does.
"""

import json
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"


def env_bool(name, default):
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name, default=""):
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

DEVELOPMENT_SECRET_KEY = "development-only-secret-key-do-not-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", DEVELOPMENT_SECRET_KEY if DEBUG else "")
if not SECRET_KEY.strip():
    raise ImproperlyConfigured("SECRET_KEY is empty: set it in the environment (or DEBUG=1 for development).")
if not DEBUG and SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    raise ImproperlyConfigured("DEBUG=0 needs a real SECRET_KEY in the environment.")

# How many reverse proxies in front of the site append to X-Forwarded-For: the
# client's address is that many entries from the right (0: REMOTE_ADDR itself).
# Login throttling and the deal history record this address (docs/security.md);
# scoring/web/client_address.py is the one place that turns it into django-ipware's terms.
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "axes",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "scoring",
]

MIDDLEWARE = [
    "scoring.web.middleware.SecurityHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Stored public pages for visitors without a session, before the rest (scoring.cache.pages).
    "scoring.cache.pages.PublicPageMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Turns a refused login (either door) into the lockout answer (AXES_LOCKOUT_CALLABLE).
    "axes.middleware.AxesMiddleware",
    # Last, so its process_view runs after CSRF's: one login attempt at a time per (username, address).
    "scoring.web.login_throttle.OneLoginAttemptAtATime",
]

# Login throttling (django-axes) for every door that checks a password: the site's login and
# the admin's share one counter, kept in the database so every worker sees it.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out attempt before any password check
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5  # per (username, client address) ...
AXES_COOLOFF_TIME = timedelta(minutes=15)  # ... within 15 minutes of the last failure
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]  # the pair, so one guesser locks no one else out
AXES_USERNAME_CALLABLE = "scoring.events.accounts.throttled_username"  # NFKC, case-folded: one counter
AXES_CLIENT_IP_CALLABLE = "scoring.web.client_address.client_ip"  # TRUSTED_PROXIES, as the deal history
AXES_HANDLER = "scoring.events.accounts.LoginThrottle"  # and a ceiling per username from anywhere
AXES_LOCKOUT_CALLABLE = "scoring.web.login_throttle.locked_out"  # 429, our page and words, JSON on request
AXES_RESET_ON_SUCCESS = True  # a success clears its own (username, address) only
# A refused attempt is not another failure: the lockout ends 15 minutes after the last real guess.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_DISABLE_ACCESS_LOG = True  # failures are what the throttle needs; successes were never logged
AXES_VERBOSE = False

ROOT_URLCONF = "huapai.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "scoring.cache.pages.live_updates",
                "scoring.web.consoles.consoles",
            ],
        },
    },
]

WSGI_APPLICATION = "huapai.wsgi.application"


def database_settings(url):
    if url:
        config = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
        if config["ENGINE"].endswith("sqlite3"):
            config["ENGINE"] = "huapai.sqlite"
            config["OPTIONS"] = SQLITE_OPTIONS
        elif config["ENGINE"].endswith("postgresql"):
            config["OPTIONS"] = POSTGRES_OPTIONS
        return config
    VAR_DIR.mkdir(exist_ok=True)
    return {
        "ENGINE": "huapai.sqlite",  # Django's, with writers queued (huapai/sqlite/base.py)
        "NAME": VAR_DIR / "db.sqlite3",
        "OPTIONS": SQLITE_OPTIONS,
        # A file, not memory, so live-server tests see real concurrent connections.
        "TEST": {"NAME": VAR_DIR / "test.sqlite3"},
    }


# WAL lets readers work while a referee writes; IMMEDIATE takes the write lock
# at BEGIN, so a read-then-write transaction waits instead of failing with
# "database is locked" when two referees save at once.
SQLITE_OPTIONS = {
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;",
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
}

# Lets scoring/entry/hot_sql.py prepare the referee's hot statements on the server
# (Django's own queries bind on the client and are never prepared). Behind
# PgBouncer, use its transaction mode only from 1.21, which keeps them.
POSTGRES_OPTIONS = {"prepare_threshold": 5}

DATABASES = {"default": database_settings(os.environ.get("DATABASE_URL", ""))}

# Standings are cached per results version (never stale). One process: memory.
# Several workers should share one cache: REDIS_URL=redis://127.0.0.1:6379/1.
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": os.environ["REDIS_URL"]}
    }
else:
    # One process's memory: room for a big event's standing rows (one key each) and stored
    # pages; Django's default of 300 entries would cull them as fast as they are written.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "TIMEOUT": 3600,
            "OPTIONS": {"MAX_ENTRIES": 50_000},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]  # each named in its own language
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
# Public standings are computed again after a publication or correction by the warmer
# (scoring.cache.warmup, in each gunicorn worker), not in the request that made it; off,
# right after the writing transaction commits (tests).
HUAPAI_WARM_IN_BACKGROUND = env_bool("HUAPAI_WARM_IN_BACKGROUND", True)
# How long a worker process reuses its reading of an event's public version before asking
# the database again (scoring.cache.pages): a publication shows within this time.
HUAPAI_PAGE_STAMP_SECONDS = float(os.environ.get("HUAPAI_PAGE_STAMP_SECONDS", "1"))
# The site's public address (https://huapai.example.org), printed on the standings picture;
# without it the picture prints the path alone, never a Host header a visitor sent.
PUBLIC_URL = os.environ.get("PUBLIC_URL", "")
# How often an open public page asks whether it changed (a HEAD answered from the cache).
HUAPAI_LIVE_POLL_SECONDS = int(os.environ.get("HUAPAI_LIVE_POLL_SECONDS", "30"))
# Backups (scoring.backups, docs/deploying.md): where they are written (never under anything
# served over HTTP), an optional second directory each is copied to (another disk or a mount),
# how many of the latest are kept besides every publication's, officialisation's and close's,
# and how often one is taken while a round is in play (by the warmer in a gunicorn worker).
HUAPAI_BACKUP_DIR = Path(os.environ.get("HUAPAI_BACKUP_DIR", VAR_DIR / "backups"))
HUAPAI_BACKUP_COPY_DIR = (
    Path(os.environ["HUAPAI_BACKUP_COPY_DIR"]) if os.environ.get("HUAPAI_BACKUP_COPY_DIR") else None
)
HUAPAI_BACKUP_KEEP = int(os.environ.get("HUAPAI_BACKUP_KEEP", "24"))
HUAPAI_BACKUP_MINUTES = float(os.environ.get("HUAPAI_BACKUP_MINUTES", "5"))
# Off: no backup is taken by itself (publications, the warmer); `manage.py backup` still is.
HUAPAI_BACKUP_AUTOMATIC = env_bool("HUAPAI_BACKUP_AUTOMATIC", True)
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Shanghai"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
if DEBUG:
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # keeps WhiteNoise quiet in development
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# A second place for every backup in an object store (docs/deploying.md): a Django storage
# backend, e.g. django-storages' "storages.backends.s3.S3Storage", with its options as JSON.
if os.environ.get("HUAPAI_BACKUP_STORAGE_BACKEND"):
    STORAGES["backups"] = {
        "BACKEND": os.environ["HUAPAI_BACKUP_STORAGE_BACKEND"],
        "OPTIONS": json.loads(os.environ.get("HUAPAI_BACKUP_STORAGE_OPTIONS") or "{}"),
    }
# The alias of STORAGES each backup's three files are copied to as well; empty: none.
HUAPAI_BACKUP_STORAGE = "backups" if "backups" in STORAGES else ""

# Uploads (the entrant spreadsheet) are capped; larger bodies are refused before a view runs.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5.html"

# A CJK TrueType font embedded in every PDF (Debian's fonts-wqy-zenhei).
CJK_FONT_PATH = os.environ.get("CJK_FONT_PATH", "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc")

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
