#pragma once
// fileio: what is written into the files (random bytes, zeros or a
// sequence) and the stamp that --validate puts at the start of each block.
//
// A stamped block (blocks start at multiples of --file-block-size in each
// file; the last one of a file may be shorter) begins with 32 bytes:
//   u32 magic, u32 file number, u64 file offset of the block,
//   u64 sequence number of the write (0: written by prepare),
//   u64 checksum of the block's bytes other than the checksum itself.
// The rest of the block holds the write pattern.
//
// A write by a run with --validate (and prepare) puts a full stamp: its
// checksum covers the whole block. Any other write puts a light stamp (its
// own magic) whose checksum covers the header and the first 8 bytes of
// each 512-byte sector of the block (the words that MakeSectorsUnique makes
// each write's own): about 40 bytes hashed per 16 KiB block, so every write
// can afford it. A later --validate checks either: a light stamp finds a
// misplaced, stale or torn block, but not a changed byte elsewhere in it.

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/random.h"
#include "workloads/fileio/fileio_options.h"

namespace loadcell {

inline constexpr size_t kBlockStampBytes = 32;

// Random bytes from `rng` (8 at a time).
void FillRandom(unsigned char* buf, size_t len, Random& rng);
// Makes a reused random write buffer unlike any earlier write: the first 8
// bytes of each 512-byte sector become a value derived from `tag` and the
// sector's index, so that with a tag unique to each write (below 2^48) no
// two written sectors of requests below 32 MiB are identical (a
// deduplicating device cannot store a run's writes as one block). Costs one
// store per sector.
inline constexpr size_t kUniqueSectorBytes = 512;
void MakeSectorsUnique(unsigned char* buf, size_t len, uint64_t tag);
// The bytes that the sequence pattern puts at file offsets
// [offset, offset + len): each 8-byte-aligned word of the file holds its own
// file offset, little-endian.
void FillSequence(unsigned char* buf, size_t len, uint64_t offset);

// The checksum of a block of `len` bytes (len >= kBlockStampBytes),
// covering every byte except the checksum field.
uint64_t BlockChecksum(const unsigned char* block, size_t len);

// Writes the stamp into each block of a request buffer that holds the file
// bytes [offset, offset + len); blocks start at multiples of block_size
// (offset is one). REQUIRES: every block in the range has at least
// kBlockStampBytes bytes.
void StampBlocks(unsigned char* buf, size_t len, uint32_t file, uint64_t offset,
                 uint64_t block_size, uint64_t seq);
// The same with light stamps (above). A block shorter than
// kBlockStampBytes is left as it is.
void StampBlocksLight(unsigned char* buf, size_t len, uint32_t file, uint64_t offset,
                      uint64_t block_size, uint64_t seq);

// What a stamped block holds, as read back.
struct BlockStamp {
  uint32_t magic = 0;
  uint32_t file = 0;
  uint64_t offset = 0;
  uint64_t seq = 0;
  uint64_t checksum = 0;
};
BlockStamp ReadStamp(const unsigned char* block);
// True for the magic of a loadcell block stamp (the full one or the light
// one that writes without --validate put).
bool IsBlockStampMagic(uint32_t magic);
// True when the block's stamp is a light one (its checksum covers only the
// header and the first word of each sector).
bool IsLightStamp(const unsigned char* block);

// Checks one block read from file `file` at `offset` (len bytes). Returns
// "" when the stamp is intact and names this file and offset; otherwise
// what is wrong and what was expected, in words. *seq gets the stamp's
// sequence number.
std::string CheckBlock(const unsigned char* block, size_t len, uint32_t file, uint64_t offset,
                       uint64_t* seq);

}  // namespace loadcell
