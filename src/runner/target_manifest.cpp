// TargetManifestOf (runner/runner.h): the manifest's entry of one file
// target, apart from the runner's loop.

#include <utility>

#include "os/file_system.h"
#include "os/host_facts.h"
#include "runner/runner.h"

namespace loadcell {

TargetManifest TargetManifestOf(const IoTargetFacts& t) {
  TargetManifest m;
  m.engine = t.engine;
  m.direct = t.direct;
  m.block_bytes = t.block_bytes;
  // A depth nobody asked for is the engine's own (a synchronous engine's
  // 1, not the option's default).
  m.queue_depth_asked = t.queue_depth_set ? t.queue_depth_asked : t.queue_depth;
  m.queue_depth = t.queue_depth;
  m.write_pattern = t.writes ? t.write_pattern : "none";
  m.file_set_bytes = t.file_set_bytes;
  if (!t.null_engine && !t.dir.empty()) {
    MountFacts mount = ReadMountFacts(t.dir);
    // Where no mount table says (Windows), the volume's own word.
    m.file_system =
        mount.file_system.empty() ? DefaultFileSystem().FsType(t.dir) : mount.file_system;
    m.mount_options = std::move(mount.options);
  }
  return m;
}

}  // namespace loadcell
