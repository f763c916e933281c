# `crib serve --tables` in a process of its own for the tests and benches: started on a free port, stopped.
import os
import subprocess
import sys
import time

import httpx
from boards import ROOT, free_port


class NotStarted(Exception):
    """The server exited or did not answer: its stderr's tail is the message."""


def start(history, tables, tree=ROOT, port=None):
    """`crib serve --db HISTORY --tables TABLES` of the source `tree`, answering: (process, its URL); on
    `port`, or a free one."""
    port = port or free_port()
    paths = [os.path.join(tree, "host_tools"), os.path.join(tree, "firmware")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
    proc = subprocess.Popen(
        [sys.executable, "-c", "from crib.cli import main; main()", "serve", "--db", history]
        + ["--port", str(port), "--tables", tables],
        cwd=tree,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = "http://127.0.0.1:%d" % port
    for _ in range(400):
        try:
            httpx.get(url + "/api/tables/2222222222", timeout=1)
            return proc, url
        except httpx.TransportError:
            if proc.poll() is not None:
                break
            time.sleep(0.05)
    proc.kill()
    raise NotStarted("crib serve did not start: %s" % proc.communicate()[1][-2000:])


def end(proc):
    """A child (a crib play, say) killed and waited for, unless it has ended or never started."""
    if proc is not None and proc.poll() is None:
        proc.kill()
        proc.wait()


def stop(proc):
    proc.terminate()  # a long poll still open holds a graceful stop up to its wait: then kill
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
