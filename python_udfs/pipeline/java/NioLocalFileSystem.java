// The embedded Spark's local file system (file://) without a `chmod` process per directory
// and file: python_udfs/pipeline/local_fs.py builds this file and says why.
package cdc.changelog.hadoop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/** Hadoop's LocalFileSystem (checksums included) over {@link Raw}. */
public class NioLocalFileSystem extends LocalFileSystem {
    public NioLocalFileSystem() {
        super(new Raw());
    }

    /**
     * RawLocalFileSystem setting permissions through java.nio. Without Hadoop's native
     * library (pip's pyspark has none) the original starts a `chmod` process for every
     * directory and file it creates.
     */
    public static class Raw extends RawLocalFileSystem {
        // bit i of a POSIX mode, lowest first
        private static final PosixFilePermission[] BITS = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_READ,
        };

        @Override
        public void setPermission(Path path, FsPermission permission) throws IOException {
            int mode = permission.toShort();
            if ((mode & ~0777) != 0) {  // the sticky bit: only chmod sets it
                super.setPermission(path, permission);
                return;
            }
            Set<PosixFilePermission> bits = EnumSet.noneOf(PosixFilePermission.class);
            for (int i = 0; i < BITS.length; i++) {
                if ((mode & (1 << i)) != 0) {
                    bits.add(BITS[i]);
                }
            }
            try {
                Files.setPosixFilePermissions(pathToFile(path).toPath(), bits);
            } catch (UnsupportedOperationException notPosix) {
                super.setPermission(path, permission);
            }
        }
    }
}
