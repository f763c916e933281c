# Where the history is, as --db names it: a SQLite file or a PostgreSQL URL, shown without its password.
import re
from urllib.parse import unquote

PG_SCHEMES = ("postgresql://", "postgres://")


def is_url(target):
    return isinstance(target, str) and target.startswith(PG_SCHEMES)


def _split(target):
    """(scheme, user information, the rest) of a URL; the user information ends at the last '@'
    before the query, so a password holding '/' or '@' is still taken whole."""
    scheme, rest = target.split("://", 1)
    head, mark, query = rest.partition("?")
    who, at, place = head.rpartition("@")
    return scheme, who if at else "", (place if at else head) + mark + query


def secrets(target):
    """The passwords a URL carries (after user: and in password=): as typed, percent-decoded, in pieces."""
    if not is_url(target):
        return []
    _scheme, who, rest = _split(target)
    found = [who.split(":", 1)[1]] if ":" in who else []
    found += re.findall(r"(?:^|[?&])password=([^&]*)", rest.partition("?")[2])
    found += [unquote(s) for s in found]
    # A driver that parses a '/' or '@' in a password as the URL's own quotes the pieces.
    found += [piece for s in found for piece in re.split("[/@]", s) if len(piece) > 1]
    return sorted({s for s in found if s}, key=len, reverse=True)


def describe(target):
    """The database as a user may see it: a path, or a URL without its password."""
    if not is_url(target):
        return target
    scheme, who, rest = _split(target)
    rest = re.sub(r"(^|[?&])password=[^&]*", r"\1password=***", rest)
    return "%s://%s%s" % (scheme, who.split(":", 1)[0] + "@" if who else "", rest)


def scrub(text, target):
    """`text` (a driver's message, a log line) with the URL's passwords taken out, wherever it quotes them."""
    text = str(text).strip()
    if is_url(target):
        text = text.replace(target, describe(target))
        for secret in secrets(target):
            text = text.replace(secret, "***")
    return text
