# A throwaway PostgreSQL server for the tests: its own cluster in a temporary folder, on a Unix socket there.
import glob
import os
import pwd
import shutil
import subprocess
import tempfile

HOW = (
    "PostgreSQL's server is needed for the club database tests: apt-get install postgresql (Debian, Ubuntu), "
    "brew install postgresql (macOS), or point CRIB_PG_BIN at a folder holding initdb and pg_ctl"
)


class Missing(Exception):
    """No PostgreSQL server programs on this machine."""


def bin_dir():
    """The folder of initdb and pg_ctl: $CRIB_PG_BIN, PATH, or Debian's /usr/lib/postgresql/N/bin."""
    here = os.environ.get("CRIB_PG_BIN")
    if here:
        candidates = [here]
    else:
        found = shutil.which("initdb")
        candidates = ([os.path.dirname(os.path.realpath(found))] if found else []) + sorted(
            glob.glob("/usr/lib/postgresql/*/bin"), reverse=True
        )
    for folder in candidates:
        if os.access(os.path.join(folder, "initdb"), os.X_OK) and os.access(
            os.path.join(folder, "pg_ctl"), os.X_OK
        ):
            return folder
    raise Missing(HOW)


class Server:
    """initdb + pg_ctl start in a temporary folder; `url` reaches it; stop() removes everything.

    PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user (which
    Debian's package creates)."""

    def __init__(self):
        self.bin = bin_dir()
        self.dir = tempfile.mkdtemp(prefix="crib-pg-")
        self.data = os.path.join(self.dir, "data")
        self._as = []
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                raise Missing(
                    "running as root and there is no postgres user to run the server as: " + HOW
                ) from None
            os.chown(self.dir, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", self.data, "-A", "trust", "-U", "crib", "--no-sync", "-E", "UTF8")
        opts = "-k %s -c listen_addresses='' -F -c max_connections=40" % self.dir
        self._run("pg_ctl", "-D", self.data, "-o", opts, "-l", os.path.join(self.dir, "log"), "-w", "start")
        self.url = "postgresql://crib@/postgres?host=%s" % self.dir

    def _run(self, prog, *args):
        cmd = self._as + [os.path.join(self.bin, prog), *args]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode:
            raise RuntimeError("%s failed: %s%s" % (prog, out.stdout, out.stderr))

    def database(self, name):
        """A fresh empty database on this server; its URL."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as con:
            con.execute('CREATE DATABASE "%s"' % name)
        return "postgresql://crib@/%s?host=%s" % (name, self.dir)

    def stop(self):
        try:
            self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
