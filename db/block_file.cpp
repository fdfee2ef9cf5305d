// Format v2: block-compressed tier files (docs/FORMAT.md has the layout).
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/page_memory.h"
#include "core/parallel.h"
#include "db/block_codec.h"
#include "db/file_io.h"
#include "db/game_dictionary.h"
#include "db/stored_symbols.h"
#include "db/tier_file.h"

namespace gs::db {

namespace {

using io::get_u64;
using io::put_u64;

constexpr std::uint8_t kHolesFilled = 1;
constexpr std::uint8_t kDerivableFilled = 2;
constexpr std::uint64_t kMaxBlockPositions = std::uint64_t{1} << 30;

std::uint64_t index_bytes(std::uint64_t blocks) { return (2 * blocks + 1) * 8; }

std::uint64_t block_checksum(const std::uint8_t* data, std::size_t size, std::uint64_t block) {
  // Seeded with the block's number, so that a block in another block's place fails too.
  return XXH3_64bits_withSeed(data, size, block);
}

std::array<std::uint8_t, kHeaderSize> encode_v2(const TierHeader& h) {
  std::array<std::uint8_t, kHeaderSize> bytes{};
  io::encode_common_header(h, h.derivable_filled ? kFormatVersion3 : kFormatVersion, bytes.data());
  bytes[204] = static_cast<std::uint8_t>(h.encoding);
  bytes[205] = h.image_bits;
  bytes[206] = static_cast<std::uint8_t>(h.codec);
  bytes[207] = static_cast<std::uint8_t>((h.holes_filled ? kHolesFilled : 0) |
                                         (h.derivable_filled ? kDerivableFilled : 0));
  put_u64(bytes.data() + 208, h.block_positions);
  put_u64(bytes.data() + 216, h.blocks);
  put_u64(bytes.data() + 224, h.table_bytes);
  put_u64(bytes.data() + 232, h.index_checksum);
  put_u64(bytes.data() + 240, h.values_checksum);
  io::seal_header(bytes.data());
  return bytes;
}

TierHeader decode_v2(const std::uint8_t* bytes, const std::string& file) {
  TierHeader h = io::decode_common_header(bytes, file);
  h.version = io::get_u32(bytes + 8);
  h.image_bits = bytes[205];
  h.holes_filled = (bytes[207] & kHolesFilled) != 0;
  h.derivable_filled = (bytes[207] & kDerivableFilled) != 0;
  if (h.derivable_filled != (h.version == kFormatVersion3))
    fail("{}: format version {} with flags {} (derivable don't-cares belong to version {} only)", file,
         h.version, bytes[207], kFormatVersion3);
  h.block_positions = get_u64(bytes + 208);
  h.blocks = get_u64(bytes + 216);
  h.table_bytes = get_u64(bytes + 224);
  h.index_checksum = get_u64(bytes + 232);
  h.values_checksum = get_u64(bytes + 240);
  // The header's checksum held, so what follows only refuses what no writer makes.
  if (io::get_u32(bytes + 12) != kHeaderSize)
    fail("{}: header size {} is not supported", file, io::get_u32(bytes + 12));
  if (bytes[204] != static_cast<std::uint8_t>(Encoding::kWinDrawLoss) &&
      bytes[204] != static_cast<std::uint8_t>(Encoding::kDepth))
    fail("{}: value encoding {} is not supported", file, bytes[204]);
  h.encoding = static_cast<Encoding>(bytes[204]);
  if (bytes[206] > static_cast<std::uint8_t>(Codec::kZstdShared))
    fail("{}: codec {} is not supported", file, bytes[206]);
  h.codec = static_cast<Codec>(bytes[206]);
  const bool bits_good =
      h.encoding == Encoding::kWinDrawLoss ? h.image_bits == 2 : (h.image_bits == 8 || h.image_bits == 16);
  if (!bits_good) fail("{}: {} bits per position is not supported", file, h.image_bits);
  if (h.block_positions == 0 || !std::has_single_bit(h.block_positions) ||
      h.block_positions > kMaxBlockPositions)
    fail("{}: block size {} is not supported", file, h.block_positions);
  if (h.blocks != (h.positions + h.block_positions - 1) / h.block_positions)
    fail("{}: {} blocks of {} positions cannot hold {} positions", file, h.blocks, h.block_positions,
         h.positions);
  return h;
}

class BlockTier final : public TierReader {
 public:
  BlockTier(std::string name, std::unique_ptr<io::MappedFile> file, const Expected& expected,
            bool check_values, Resolver resolver)
      : name_(std::move(name)), file_(std::move(file)), resolver_(std::move(resolver)) {
    const std::uint8_t* bytes = file_->data();
    header_ = decode_v2(bytes, name_);
    io::check_expected(header_, expected, name_);
    const TierHeader& h = header_;
    shift_ = static_cast<unsigned>(std::countr_zero(h.block_positions));
    const std::uint64_t size = file_->size();
    // Sizes from the header are bounded by the file's size before any sum can overflow.
    if (h.blocks > size / 16 || h.table_bytes > size)
      fail("{}: truncated database file ({} bytes, its header describes {} blocks and a {}-byte table)",
           name_, size, h.blocks, h.table_bytes);
    data_start_ = kHeaderSize + index_bytes(h.blocks) + h.table_bytes;
    if (data_start_ > size)
      fail("{}: truncated database file ({} bytes, the header, block index and table take {})", name_, size,
           data_start_);
    if (XXH3_64bits(bytes + kHeaderSize, data_start_ - kHeaderSize) != h.index_checksum)
      fail("{}: block index checksum mismatch (corrupt file)", name_);
    offsets_ = bytes + kHeaderSize;
    checksums_ = offsets_ + 8 * (h.blocks + 1);
    if (offset(0) != data_start_)
      fail("{}: the block index does not start at the blocks (corrupt file)", name_);
    for (std::uint64_t b = 0; b < h.blocks; ++b) {
      if (offset(b + 1) < offset(b))
        fail("{}: block index out of order at block {} (corrupt file)", name_, b);
    }
    if (offset(h.blocks) != size)
      fail("{}: truncated or extended database file ({} bytes, the block index says {})", name_, size,
           offset(h.blocks));
    const std::span<const std::uint8_t> table(bytes + kHeaderSize + index_bytes(h.blocks), h.table_bytes);
    if (h.codec == Codec::kZstdShared) {
      codec_ = open_game_dictionary(name_, h, table);  // its errors name both files
    } else {
      try {
        codec_ = make_codec(h.codec, h.image_bits, table);
      } catch (const Error& e) {
        fail("{}: {}", name_, e.what());
      }
    }
    stride_ = image_bytes(h.block_positions, h.image_bits);
    images_ = PageMemory(h.blocks * stride_);
    states_ = std::make_unique<std::atomic<std::uint8_t>[]>(h.blocks);  // value-initialized: kEmpty
    if (!header_.derivable_filled) resolver_ = nullptr;
    if (check_values) check(false);
  }
  BlockTier(const BlockTier&) = delete;
  BlockTier& operator=(const BlockTier&) = delete;

  [[nodiscard]] ValueCode code(Index index) const override {
    const std::uint64_t block = index >> shift_;
    if (states_[block].load(std::memory_order_acquire) != kReady) load(block);
    return image_symbol(images_.data() + block * stride_, header_.image_bits,
                        index & (header_.block_positions - 1));
  }
  void prefetch(Index index) const override {
    const std::uint64_t block = index >> shift_;
    if (states_[block].load(std::memory_order_relaxed) != kReady) return;  // decompressed when code() asks
    __builtin_prefetch(images_.data() + block * stride_ +
                       ((index & (header_.block_positions - 1)) * header_.image_bits >> 3));
  }
  [[nodiscard]] const std::uint8_t* load_image(int threads) const override {
    // Blocks of a whole number of bytes side by side are the tier's image.
    if (header_.block_positions * header_.image_bits % 8 != 0) return nullptr;
    parallel_for(0, header_.blocks, threads, 1, [&](std::uint64_t begin, std::uint64_t end, int) {
      for (std::uint64_t block = begin; block < end; ++block) {
        if (states_[block].load(std::memory_order_acquire) != kReady) load(block);
      }
    });
    return images_.data();
  }
  [[nodiscard]] const TierHeader& header() const override { return header_; }
  [[nodiscard]] const std::string& path() const override { return name_; }
  [[nodiscard]] std::uint64_t file_bytes() const override { return file_->size(); }
  [[nodiscard]] std::uint64_t memory_bytes() const override {
    return file_->size() + image_bytes(header_.positions, header_.image_bits) + header_.blocks * 8;
  }

  void read_block(std::uint64_t block, std::vector<std::uint8_t>& image) const override {
    if (block >= header_.blocks) fail("{}: block {} is past the last block {}", name_, block, header_.blocks);
    const std::uint8_t* data = file_->data() + offset(block);
    const std::uint64_t size = offset(block + 1) - offset(block);
    if (block_checksum(data, size, block) != get_u64(checksums_ + 8 * block))
      fail("{}: block {} of {}: checksum mismatch (corrupt file)", name_, block, header_.blocks);
    const std::uint64_t first = block << shift_;
    image.resize(
        image_bytes(std::min(header_.block_positions, header_.positions - first), header_.image_bits));
    if (!codec_->decompress({data, size}, image))
      fail("{}: block {} of {} does not decompress (corrupt file)", name_, block, header_.blocks);
  }

  void check(bool decompress) const override {
    for (std::uint64_t b = 0; b < header_.blocks; ++b) {
      if (block_checksum(file_->data() + offset(b), offset(b + 1) - offset(b), b) !=
          get_u64(checksums_ + 8 * b))
        fail("{}: block {} of {}: checksum mismatch (corrupt file)", name_, b, header_.blocks);
    }
    if (!decompress) return;
    XXH3_state_t* state = XXH3_createState();
    XXH3_64bits_reset(state);
    std::vector<std::uint8_t> image;
    try {
      for (std::uint64_t b = 0; b < header_.blocks; ++b) {
        read_block(b, image);
        XXH3_64bits_update(state, image.data(), image.size());
      }
    } catch (...) {
      XXH3_freeState(state);
      throw;
    }
    const std::uint64_t digest = XXH3_64bits_digest(state);
    XXH3_freeState(state);
    if (digest != header_.values_checksum)
      fail("{}: the decompressed blocks do not match the values' checksum (corrupt file)", name_);
  }

 private:
  [[nodiscard]] std::uint64_t offset(std::uint64_t block) const { return get_u64(offsets_ + 8 * block); }

  // Decompresses a block for code(), its derivable positions given their values, into
  // its place in images_: one thread does it while the others wait for it.
  void load(std::uint64_t block) const {
    std::atomic<std::uint8_t>& state = states_[block];
    std::uint8_t seen = kEmpty;
    while (!state.compare_exchange_weak(seen, kLoading, std::memory_order_acquire)) {
      if (seen == kReady) return;
      if (seen == kLoading) {
        state.wait(kLoading, std::memory_order_acquire);
        seen = kEmpty;  // ready, or empty again if the loading thread failed
      }
    }
    try {
      decode(block);
    } catch (...) {
      state.store(kEmpty, std::memory_order_release);
      state.notify_all();
      throw;
    }
    state.store(kReady, std::memory_order_release);
    state.notify_all();
  }

  void decode(std::uint64_t block) const {
    std::vector<std::uint8_t> image;
    read_block(block, image);
    if (resolver_) {
      const unsigned bits = header_.image_bits;
      std::vector<ValueCode> codes(
          std::min<std::uint64_t>(header_.block_positions, header_.positions - (block << shift_)));
      unpack_image(image, bits, codes);
      resolver_(block << shift_, codes);
      for (ValueCode& code : codes) {
        if (bits == 2) code = win_draw_loss(code);
        if (bits == 8 && code > 255)
          fail("{}: block {}: a derived value (code {}) does not fit the file's 8-bit values", name_, block,
               code);
      }
      pack_image(codes, bits, image);
    }
    std::copy(image.begin(), image.end(), images_.data() + block * stride_);
  }

  static constexpr std::uint8_t kEmpty = 0;
  static constexpr std::uint8_t kLoading = 1;
  static constexpr std::uint8_t kReady = 2;

  std::string name_;
  std::unique_ptr<io::MappedFile> file_;
  TierHeader header_;
  unsigned shift_ = 0;
  std::uint64_t data_start_ = 0;
  const std::uint8_t* offsets_ = nullptr;
  const std::uint8_t* checksums_ = nullptr;
  std::shared_ptr<const BlockCodec> codec_;  // shared: a game dictionary's codec serves many files
  Resolver resolver_;                        // set only for files with derivable don't-cares
  // Every block's image at block * stride_, its pages touched when first decompressed.
  std::uint64_t stride_ = 0;
  PageMemory images_;
  std::unique_ptr<std::atomic<std::uint8_t>[]> states_;  // kEmpty, kLoading or kReady
};

// What a dictionary is trained on, at most (the trainer takes an evenly spread part).
constexpr std::uint64_t kTrainingSampleBytes = 4 << 20;
// Bytes of image (evenly spread) on which the codecs and block sizes are compared; the
// whole tier if it is smaller.
constexpr std::uint64_t kChoiceSampleBytes = std::uint64_t{1} << 20;

}  // namespace

std::unique_ptr<TierReader> io::open_tier_v2(std::string name, std::unique_ptr<MappedFile> file,
                                             const Expected& expected, bool check_values, Resolver resolver) {
  return std::make_unique<BlockTier>(std::move(name), std::move(file), expected, check_values,
                                     std::move(resolver));
}

namespace {

int writing_threads(const WriteOptions& options) {
  return options.threads > 0 ? options.threads : default_threads();
}
// Blocks write_tier makes at once (each on a thread, then written in order).
std::uint64_t batch_blocks(int threads) {
  return std::max<std::uint64_t>(64, 16 * static_cast<std::uint64_t>(threads));
}

// Parts of a tier (index ranges) on which codecs and block sizes are compared, or a
// dictionary trained: evenly spread ranges of kDefaultBlockBytes of image (the largest
// block size), `budget` bytes of image in all (the whole tier if it is smaller).
std::vector<std::pair<std::uint64_t, std::uint64_t>> spread_ranges(std::uint64_t positions, unsigned bits,
                                                                   std::uint64_t budget) {
  const std::uint64_t range = kDefaultBlockBytes * 8 / bits;
  const std::uint64_t ranges = (positions + range - 1) / range;
  const std::uint64_t wanted = std::max<std::uint64_t>(1, budget / kDefaultBlockBytes);
  const std::uint64_t step = std::max<std::uint64_t>(1, ranges / wanted);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (std::uint64_t r = 0; r < ranges; r += step)
    out.emplace_back(r * range, std::min(positions, (r + 1) * range));
  return out;
}

// The images of blocks of `block_positions` positions cut from ranges of the symbols.
std::vector<std::vector<std::uint8_t>> images_of(
    const StoredSymbols& symbols, unsigned bits, std::uint64_t block_positions,
    const std::vector<std::pair<std::uint64_t, std::uint64_t>>& ranges) {
  std::vector<std::vector<std::uint8_t>> out;
  std::vector<ValueCode> part;
  for (const auto& [first, last] : ranges) {
    for (std::uint64_t b = first; b < last; b += block_positions) {
      symbols.fill(b, std::min(last, b + block_positions), part);
      out.emplace_back(image_bytes(part.size(), bits));
      pack_image(part, bits, out.back());
    }
  }
  return out;
}

// Bits per position of a tier's images: from every value, don't-cares included (a reader
// resolving them writes their values into images of this width).
std::uint8_t image_bits_of(std::span<const ValueCode> codes, Encoding encoding) {
  if (encoding == Encoding::kWinDrawLoss) return 2;
  const ValueCode largest = codes.empty() ? 0 : *std::max_element(codes.begin(), codes.end());
  return largest < 256 ? 8 : 16;
}

}  // namespace

std::vector<std::vector<std::uint8_t>> dictionary_samples(const TierHeader& header,
                                                          std::span<const ValueCode> codes,
                                                          const WriteOptions& options,
                                                          std::uint64_t budget_bytes) {
  const unsigned bits = image_bits_of(codes, options.encoding);
  const int threads = writing_threads(options);
  const StoredSymbols symbols(header.tier, codes, options, threads);
  // Pieces of up to kDictionarySampleBytes of image, evenly spaced, at most budget_bytes
  // in all (fewer pieces than asked for, never more).
  const std::uint64_t piece_bytes = std::clamp<std::uint64_t>(budget_bytes, 1, kDictionarySampleBytes);
  const std::uint64_t piece = std::max<std::uint64_t>(1, piece_bytes * 8 / bits);
  const std::uint64_t pieces = (symbols.size() + piece - 1) / piece;
  const std::uint64_t wanted = std::max<std::uint64_t>(1, budget_bytes / piece_bytes);
  const std::uint64_t step = std::max<std::uint64_t>(1, (pieces + wanted - 1) / wanted);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (std::uint64_t p = 0; p < pieces; p += step)
    ranges.emplace_back(p * piece, std::min<std::uint64_t>(symbols.size(), (p + 1) * piece));
  return images_of(symbols, bits, piece, ranges);
}

std::uint64_t write_tier_bytes(std::uint64_t positions, const WriteOptions& options) {
  // The largest block's image: 16 bits a position where block_positions is given.
  const std::uint64_t image = options.block_positions != 0 ? 2 * options.block_positions
                              : options.block_bytes != 0   ? options.block_bytes
                                                           : kDefaultBlockBytes;
  // The fewest positions a block may hold (1024-byte blocks of 16-bit images, the
  // smallest of the choices), for the index's size.
  const std::uint64_t fewest = options.block_positions != 0 ? options.block_positions
                               : options.block_bytes != 0
                                   ? std::max<std::uint64_t>(1, options.block_bytes / 2)
                                   : kBlockBytesChoices.front() / 2;
  const auto threads = static_cast<std::uint64_t>(writing_threads(options));
  // Per block of a batch its image, its compressed form (zstd's bound: a little more than
  // the image), and per thread an image decompressed again and the symbols of a block.
  const std::uint64_t blocks = positions / fewest + 1;
  const std::uint64_t batch =
      std::min(blocks, batch_blocks(static_cast<int>(threads))) * (2 * image + 1024) + threads * 2 * image;
  const std::uint64_t index = index_bytes(blocks) + kGameDictionaryBytes;
  // A sample is at most the whole tier's image, as taken and compressed.
  const std::uint64_t samples =
      std::min(2 * kChoiceSampleBytes + 2 * kTrainingSampleBytes, 4 * (2 * positions + image));
  const std::uint64_t derivable = options.derivable ? positions / 8 + 8 : 0;
  return batch + index + samples + derivable;
}

std::optional<NamedDictionary> game_dictionary_of(const std::filesystem::path& path) {
  const std::string name = path.string();
  const io::MappedFile file(name);
  if (file.size() < kHeaderSize)
    fail("{}: truncated database file ({} bytes, the header alone is {})", name, file.size(), kHeaderSize);
  const std::uint8_t* bytes = file.data();
  if (std::memcmp(bytes, io::kMagic.data(), io::kMagic.size()) != 0)
    fail("{}: not a gamesolver database file (bad magic)", name);
  const std::uint32_t version = io::get_u32(bytes + 8);
  if (version == kFormatVersion1) return std::nullopt;  // values only
  if (version != kFormatVersion && version != kFormatVersion3)
    fail("{}: format version {} is not supported", name, version);
  const TierHeader h = decode_v2(bytes, name);
  if (h.codec != Codec::kZstdShared) return std::nullopt;
  if (h.blocks > file.size() / 16 || h.table_bytes > file.size() ||
      kHeaderSize + index_bytes(h.blocks) + h.table_bytes > file.size())
    fail("{}: truncated database file ({} bytes)", name, file.size());
  try {
    return NamedDictionary{
        h.encoding,
        parse_dictionary_identity({bytes + kHeaderSize + index_bytes(h.blocks), h.table_bytes}).checksum};
  } catch (const Error& e) {
    fail("{}: {}", name, e.what());
  }
}

TierHeader write_tier(const std::filesystem::path& path, TierHeader header, std::span<const ValueCode> codes,
                      const WriteOptions& options, WriteChoice* choice) {
  // Codes read from a win/draw/loss file have no depths: its header keeps the longest ones
  // of the database it was made from, and so does the file written from it.
  const bool depthless = !header.depths();
  const Depth longest_win = header.longest_win;
  const Depth longest_loss = header.longest_loss;
  io::count_values(header, codes);
  if (depthless) {
    header.longest_win = std::max(header.longest_win, longest_win);
    header.longest_loss = std::max(header.longest_loss, longest_loss);
  }
  header.version = kFormatVersion;
  header.encoding = options.encoding;
  header.value_bytes = 0;
  header.image_bits = image_bits_of(codes, options.encoding);
  const unsigned bits = header.image_bits;
  if (options.block_positions != 0 &&
      (!std::has_single_bit(options.block_positions) || options.block_positions > kMaxBlockPositions))
    fail("block size {} is not a power of two up to {}", options.block_positions, kMaxBlockPositions);
  header.holes_filled = options.fill_holes;
  const int threads = writing_threads(options);
  const std::uint64_t positions = codes.size();
  const StoredSymbols symbols(header.tier, codes, options, threads);
  header.derivable_filled = symbols.derivable_count() > 0;
  if (header.derivable_filled) header.version = kFormatVersion3;

  // Candidate block sizes and codecs, each fitted to and measured on the same spread
  // ranges of the tier; the smallest file (blocks scaled to the tier, index and table)
  // wins.
  std::vector<std::uint64_t> block_sizes;
  if (options.block_positions != 0) {
    block_sizes.push_back(options.block_positions);
  } else if (options.block_bytes != 0) {
    if (!std::has_single_bit(options.block_bytes) || options.block_bytes * 8 / bits == 0)
      fail("block size {} bytes is not a power of two of at least one position", options.block_bytes);
    block_sizes.push_back(options.block_bytes * 8 / bits);
  } else {
    for (const std::size_t bytes : kBlockBytesChoices) block_sizes.push_back(bytes * 8 / bits);
  }
  struct Candidate {
    Codec codec;
    bool dictionary;
  };
  std::vector<Candidate> candidates;
  if (options.codec) {
    candidates.push_back({*options.codec, false});
    if (*options.codec == Codec::kZstd) candidates.push_back({Codec::kZstd, true});
  } else {
    candidates = {
        {Codec::kNone, false}, {Codec::kRunLength, false}, {Codec::kZstd, false}, {Codec::kZstd, true}};
  }
  if (options.dictionary) {
    std::erase_if(candidates, [&](const Candidate& c) {
      return c.codec == Codec::kZstd && c.dictionary != *options.dictionary;
    });
  }
  // The game's shared dictionary, beside zstd's other forms.
  if (options.game_dictionary && (!options.codec || *options.codec == Codec::kZstd))
    candidates.push_back({Codec::kZstdShared, true});
  auto compress_blocks = [&](const BlockCodec& codec, const std::vector<std::vector<std::uint8_t>>& which) {
    std::vector<std::vector<std::uint8_t>> out(which.size());
    parallel_for(0, which.size(), threads, 1, [&](std::uint64_t begin, std::uint64_t end, int) {
      for (std::uint64_t b = begin; b < end; ++b) codec.compress(which[b], out[b]);
    });
    return out;
  };
  const auto sample_ranges = spread_ranges(positions, bits, kChoiceSampleBytes);
  const auto training_ranges = spread_ranges(positions, bits, kTrainingSampleBytes);
  std::uint64_t sample_positions = 0;
  for (const auto& [first, last] : sample_ranges) sample_positions += last - first;
  // One dictionary per tier, trained on blocks of the largest size and tried with every
  // size (training costs more than compressing the sample).
  std::optional<std::vector<std::uint8_t>> dictionary;
  std::shared_ptr<const BlockCodec> chosen;
  std::uint64_t chosen_block_positions = block_sizes.front();
  std::uint64_t chosen_bytes = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t without_game_dictionary = std::numeric_limits<std::uint64_t>::max();
  for (const std::uint64_t block_positions : block_sizes) {
    const auto sample = images_of(symbols, bits, block_positions, sample_ranges);
    const std::vector<std::span<const std::uint8_t>> sample_spans(sample.begin(), sample.end());
    const std::uint64_t blocks = (positions + block_positions - 1) / block_positions;
    for (const Candidate& candidate : candidates) {
      std::shared_ptr<const BlockCodec> codec;
      if (candidate.codec == Codec::kZstdShared) {
        codec = options.game_dictionary;
      } else if (candidate.dictionary) {
        if (!dictionary) {
          const auto training = images_of(symbols, bits, block_sizes.back(), training_ranges);
          dictionary = train_zstd_dictionary({training.begin(), training.end()});
        }
        codec = zstd_codec(*dictionary, options.zstd_level);
        if (codec->table().empty() && candidates.size() > 1) continue;  // too little to train on
      } else {
        codec = fit_codec(candidate.codec, bits, sample_spans, false, options.zstd_level);
      }
      std::uint64_t sample_bytes = 0;
      for (const auto& block : compress_blocks(*codec, sample)) sample_bytes += block.size();
      const std::uint64_t bytes =
          index_bytes(blocks) + codec->table().size() +
          static_cast<std::uint64_t>(static_cast<double>(sample_bytes) * static_cast<double>(positions) /
                                     static_cast<double>(std::max<std::uint64_t>(sample_positions, 1)));
      if (candidate.codec != Codec::kZstdShared)
        without_game_dictionary = std::min(without_game_dictionary, bytes);
      if (bytes < chosen_bytes) {
        chosen = std::move(codec);
        chosen_bytes = bytes;
        chosen_block_positions = block_positions;
      }
    }
  }
  if (choice != nullptr) *choice = {chosen_bytes, without_game_dictionary};
  header.block_positions = chosen_block_positions;
  header.blocks = (positions + header.block_positions - 1) / header.block_positions;
  const std::uint64_t blocks = header.blocks;
  header.codec = chosen->id();
  const std::vector<std::uint8_t>& table = chosen->table();
  header.table_bytes = table.size();

  // The blocks are made a batch at a time, each packed, compressed and checked on a
  // thread, then written in order after the header and index, which are written last
  // (the offsets, block checksums and the values' checksum are known then). So the
  // writer holds the values, one batch and the index: neither a copy of the values as
  // stored nor the whole compressed tier.
  std::vector<std::uint8_t> index(index_bytes(blocks) + table.size());
  std::copy(table.begin(), table.end(), index.begin() + static_cast<std::ptrdiff_t>(index_bytes(blocks)));
  const std::uint64_t batch = batch_blocks(threads);
  io::write_atomically(path, [&](int fd, const std::string& temp) {
    const std::vector<std::uint8_t> placeholder(kHeaderSize + index.size(), 0);
    io::write_all(fd, placeholder.data(), placeholder.size(), temp);
    XXH3_state_t* state = XXH3_createState();
    if (state == nullptr) fail("{}: out of memory for a checksum", temp);
    const std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> owned(state, &XXH3_freeState);
    XXH3_64bits_reset(state);
    std::vector<std::vector<std::uint8_t>> images(batch);
    std::vector<std::vector<std::uint8_t>> compressed(batch);
    std::vector<std::uint8_t> buffer;
    std::uint64_t offset = placeholder.size();
    for (std::uint64_t first = 0; first < blocks; first += batch) {
      const std::uint64_t count = std::min(batch, blocks - first);
      parallel_for(0, count, threads, 4, [&](std::uint64_t begin, std::uint64_t end, int) {
        std::vector<ValueCode> part;
        std::vector<std::uint8_t> back;
        for (std::uint64_t k = begin; k < end; ++k) {
          const std::uint64_t b = first + k;
          const std::uint64_t start = b * header.block_positions;
          symbols.fill(start, std::min<std::uint64_t>(positions, start + header.block_positions), part);
          std::vector<std::uint8_t>& image = images[k];
          image.assign(image_bytes(part.size(), bits), 0);
          pack_image(part, bits, image);
          chosen->compress(image, compressed[k]);
          // Every block must decompress to its image before the file may replace anything.
          back.assign(image.size(), 0);
          if (!chosen->decompress(compressed[k], back) || back != image)
            fail("internal error: block {} of {} does not decompress to its values with codec {}", b,
                 header.tier_name, codec_name(chosen->id()));
        }
      });
      buffer.clear();
      for (std::uint64_t k = 0; k < count; ++k) {
        const std::uint64_t b = first + k;
        XXH3_64bits_update(state, images[k].data(), images[k].size());
        put_u64(index.data() + 8 * b, offset);
        put_u64(index.data() + 8 * (blocks + 1 + b),
                block_checksum(compressed[k].data(), compressed[k].size(), b));
        offset += compressed[k].size();
        buffer.insert(buffer.end(), compressed[k].begin(), compressed[k].end());
      }
      io::write_all(fd, buffer.data(), buffer.size(), temp);
    }
    put_u64(index.data() + 8 * blocks, offset);
    header.values_checksum = XXH3_64bits_digest(state);
    header.index_checksum = XXH3_64bits(index.data(), index.size());
    const auto bytes = encode_v2(header);
    io::write_all_at(fd, bytes.data(), bytes.size(), 0, temp);
    io::write_all_at(fd, index.data(), index.size(), kHeaderSize, temp);
  });
  return header;
}

}  // namespace gs::db
