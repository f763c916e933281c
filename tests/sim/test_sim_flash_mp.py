# The sim's flash (sim/flash.py) is a real littlefs in a host file: what was written before the
# process ended is there at the next mount, as on the Pico after a power cut.
import os

from sim import flash as simflash


def _image():
    path = "/tmp/cribsim-flash-%d.img" % (os.urandom(2)[0] * 256 + os.urandom(1)[0])
    try:
        os.remove(path)
    except OSError:
        pass
    return path


def test_a_new_image_is_formatted_and_keeps_files_across_mounts():
    path = _image()
    try:
        dev = simflash.mount(path, "/simflash", blocks=32)
        assert os.stat(path)[6] == 32 * simflash.BLOCK
        simflash.makedirs("/simflash/data/deep")
        with open("/simflash/data/journal.log", "w") as f:
            f.write("cribboard-journal 1 first 1\n")
        with open("/simflash/data/journal.log", "a") as f:
            f.write("1 00000000 {}\n")
        assert dev.writes > 0
        # No unmount: the process "dies" here; a new device on the same file mounts what was written.
        import vfs

        vfs.umount("/simflash")
        dev2 = simflash.mount(path, "/simflash", blocks=32)
        with open("/simflash/data/journal.log") as f:
            assert f.read() == "cribboard-journal 1 first 1\n1 00000000 {}\n"
        assert "deep" in os.listdir("/simflash/data")
        simflash.unmount(dev2, "/simflash")
        dev.close()
    finally:
        os.remove(path)


def test_an_image_that_is_not_littlefs_is_formatted():
    path = _image()
    try:
        with open(path, "wb") as f:
            f.write(b"\x00" * (16 * simflash.BLOCK))
        dev = simflash.mount(path, "/simflash", blocks=16)
        assert os.listdir("/simflash") == []
        simflash.unmount(dev, "/simflash")
    finally:
        os.remove(path)
