#include "db/block_codec.h"

#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_c_format: frames without the 4-byte magic number
#include <xxhash.h>
#include <zdict.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <utility>

#include "core/error.h"

namespace gs::db {

std::string encoding_name(Encoding encoding) { return encoding == Encoding::kWinDrawLoss ? "wdl" : "depth"; }

std::string codec_name(Codec codec) {
  switch (codec) {
    case Codec::kNone: return "none";
    case Codec::kRunLength: return "rle";
    case Codec::kZstd: return "zstd";
    case Codec::kZstdShared: return "zstd+game";
  }
  return "unknown";
}

void pack_image(std::span<const ValueCode> symbols, unsigned bits, std::span<std::uint8_t> image) {
  std::fill(image.begin(), image.end(), std::uint8_t{0});
  for (std::size_t i = 0; i < symbols.size(); ++i) {
    if (bits == 2) {
      image[i >> 2] = static_cast<std::uint8_t>(image[i >> 2] | (symbols[i] & 3) << ((i & 3) * 2));
    } else if (bits == 8) {
      image[i] = static_cast<std::uint8_t>(symbols[i]);
    } else {
      image[2 * i] = static_cast<std::uint8_t>(symbols[i] & 0xFF);
      image[2 * i + 1] = static_cast<std::uint8_t>(symbols[i] >> 8);
    }
  }
}

void unpack_image(std::span<const std::uint8_t> image, unsigned bits, std::span<ValueCode> symbols) {
  for (std::size_t i = 0; i < symbols.size(); ++i) symbols[i] = image_symbol(image.data(), bits, i);
}

namespace {

// ---------------------------------------------------------------------------------
// Stored: the image as it is.

class StoredCodec final : public BlockCodec {
 public:
  [[nodiscard]] Codec id() const override { return Codec::kNone; }
  [[nodiscard]] const std::vector<std::uint8_t>& table() const override { return table_; }
  void compress(std::span<const std::uint8_t> image, std::vector<std::uint8_t>& out) const override {
    out.assign(image.begin(), image.end());
  }
  [[nodiscard]] bool decompress(std::span<const std::uint8_t> data,
                                std::span<std::uint8_t> image) const override {
    if (data.size() != image.size()) return false;
    std::copy(data.begin(), data.end(), image.begin());
    return true;
  }

 private:
  std::vector<std::uint8_t> table_;
};

// ---------------------------------------------------------------------------------
// Run-length coding over a small alphabet: the A most frequent symbols of the file.
// Every token starts with one byte b:
//
//   b < T = A^k          k symbols of the alphabet, the digits of b in base A (lowest
//                        first): mixed short stretches, Chinook's "several values in a
//                        byte" (k = 4 for the three values of win/draw/loss)
//   T <= b < T + A*R     a run of alphabet symbol (b - T) / R, of length (b - T) % R + 1
//   b = 255              a run of any symbol: LEB128 varint (length - 1), then the
//                        symbol (2 bytes, little-endian); for long runs and for symbols
//                        outside the alphabet
//
// where R = (255 - T) / A. The table is: version (1), A, k, 0, then A symbols of 2 bytes.

constexpr std::uint8_t kEscape = 255;
constexpr unsigned kTupleBudget = 96;

unsigned tuple_width(unsigned alphabet) {
  if (alphabet < 2) return 0;
  unsigned width = 0;
  unsigned power = 1;
  while (power * alphabet <= kTupleBudget) {
    power *= alphabet;
    ++width;
  }
  return width >= 2 ? width : 0;
}

class RunLengthCodec final : public BlockCodec {
 public:
  RunLengthCodec(unsigned bits, std::vector<ValueCode> alphabet)
      : bits_(bits), alphabet_(std::move(alphabet)) {
    const auto size = static_cast<unsigned>(alphabet_.size());
    width_ = tuple_width(size);
    tuples_ = 1;
    for (unsigned i = 0; i < width_; ++i) tuples_ *= size;
    if (width_ == 0) tuples_ = 0;
    run_lengths_ = (255 - tuples_) / size;
    table_ = {1, static_cast<std::uint8_t>(size), static_cast<std::uint8_t>(width_), 0};
    for (const ValueCode symbol : alphabet_) {
      table_.push_back(static_cast<std::uint8_t>(symbol & 0xFF));
      table_.push_back(static_cast<std::uint8_t>(symbol >> 8));
    }
    rank_.fill(-1);
    for (unsigned a = 0; a < size; ++a) {
      if (alphabet_[a] < rank_.size()) rank_[alphabet_[a]] = static_cast<int>(a);
    }
  }

  [[nodiscard]] Codec id() const override { return Codec::kRunLength; }
  [[nodiscard]] const std::vector<std::uint8_t>& table() const override { return table_; }

  void compress(std::span<const std::uint8_t> image, std::vector<std::uint8_t>& out) const override {
    std::vector<ValueCode> symbols(image.size() * 8 / bits_);
    unpack_image(image, bits_, symbols);
    out.clear();
    encode(symbols, out);
  }

  [[nodiscard]] bool decompress(std::span<const std::uint8_t> data,
                                std::span<std::uint8_t> image) const override {
    if (image.size() * 8 % bits_ != 0) return false;
    std::vector<ValueCode> symbols(image.size() * 8 / bits_);
    std::size_t at = 0;
    std::size_t filled = 0;
    const std::size_t n = symbols.size();
    const auto size = static_cast<unsigned>(alphabet_.size());
    while (at < data.size()) {
      const std::uint8_t b = data[at++];
      if (b < tuples_) {
        if (n - filled < width_) return false;
        unsigned digits = b;
        for (unsigned i = 0; i < width_; ++i) {
          symbols[filled++] = alphabet_[digits % size];
          digits /= size;
        }
      } else if (b < tuples_ + size * run_lengths_) {
        const unsigned token = b - tuples_;
        const std::size_t length = token % run_lengths_ + 1;
        if (n - filled < length) return false;
        std::fill_n(symbols.begin() + static_cast<std::ptrdiff_t>(filled), length,
                    alphabet_[token / run_lengths_]);
        filled += length;
      } else if (b == kEscape) {
        std::uint64_t length = 0;
        int shift = 0;
        while (true) {
          if (at >= data.size() || shift > 56) return false;
          const std::uint8_t byte = data[at++];
          length |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
          shift += 7;
          if ((byte & 0x80) == 0) break;
        }
        ++length;
        if (at + 2 > data.size() || n - filled < length) return false;
        const auto symbol = static_cast<ValueCode>(data[at] | (data[at + 1] << 8));
        at += 2;
        std::fill_n(symbols.begin() + static_cast<std::ptrdiff_t>(filled), length, symbol);
        filled += length;
      } else {
        return false;
      }
    }
    if (filled != n) return false;
    pack_image(symbols, bits_, image);
    return true;
  }

  // The encoded size of some symbols, to choose the alphabet.
  [[nodiscard]] std::size_t encoded_size(std::span<const ValueCode> symbols) const {
    std::vector<std::uint8_t> out;
    encode(symbols, out);
    return out.size();
  }

 private:
  [[nodiscard]] int rank_of(ValueCode symbol) const {
    if (symbol < rank_.size()) return rank_[symbol];
    for (std::size_t a = 0; a < alphabet_.size(); ++a) {
      if (alphabet_[a] == symbol) return static_cast<int>(a);
    }
    return -1;
  }

  void escape(std::size_t length, ValueCode symbol, std::vector<std::uint8_t>& out) const {
    out.push_back(kEscape);
    std::uint64_t rest = length - 1;
    while (rest >= 0x80) {
      out.push_back(static_cast<std::uint8_t>(rest | 0x80));
      rest >>= 7;
    }
    out.push_back(static_cast<std::uint8_t>(rest));
    out.push_back(static_cast<std::uint8_t>(symbol & 0xFF));
    out.push_back(static_cast<std::uint8_t>(symbol >> 8));
  }

  void encode(std::span<const ValueCode> symbols, std::vector<std::uint8_t>& out) const {
    const std::size_t n = symbols.size();
    std::size_t i = 0;
    while (i < n) {
      const ValueCode symbol = symbols[i];
      std::size_t run = 1;
      while (i + run < n && symbols[i + run] == symbol) ++run;
      const int rank = rank_of(symbol);
      if (rank < 0 || run > std::size_t{3} * run_lengths_) {
        escape(run, symbol, out);
        i += run;
        continue;
      }
      if (width_ > 0 && run < width_ && i + width_ <= n) {
        unsigned digits = 0;
        unsigned power = 1;
        bool all = true;
        for (unsigned j = 0; j < width_ && all; ++j) {
          const int r = rank_of(symbols[i + j]);
          all = r >= 0;
          digits += static_cast<unsigned>(std::max(r, 0)) * power;
          power *= static_cast<unsigned>(alphabet_.size());
        }
        if (all) {
          out.push_back(static_cast<std::uint8_t>(digits));
          i += width_;
          continue;
        }
      }
      while (run > 0) {
        const std::size_t length = std::min<std::size_t>(run, run_lengths_);
        out.push_back(
            static_cast<std::uint8_t>(tuples_ + static_cast<unsigned>(rank) * run_lengths_ + length - 1));
        run -= length;
        i += length;
      }
    }
  }

  unsigned bits_;
  std::vector<ValueCode> alphabet_;
  unsigned width_ = 0;
  unsigned tuples_ = 0;
  unsigned run_lengths_ = 0;
  std::array<int, 1024> rank_{};
  std::vector<std::uint8_t> table_;
};

// ---------------------------------------------------------------------------------
// zstd, optionally with a dictionary trained on the file's own blocks. Frames carry
// no magic number, content size, dictionary id or checksum: the block index has the
// sizes and XXH3 checksums already.

struct ZstdContexts {
  ZSTD_CCtx* compress = ZSTD_createCCtx();
  ZSTD_DCtx* decompress = ZSTD_createDCtx();
  ZstdContexts() {
    if (compress == nullptr || decompress == nullptr) fail("out of memory: cannot create a zstd context");
  }
  ~ZstdContexts() {
    ZSTD_freeCCtx(compress);
    ZSTD_freeDCtx(decompress);
  }
  ZstdContexts(const ZstdContexts&) = delete;
  ZstdContexts& operator=(const ZstdContexts&) = delete;
};

// One pair of contexts per thread: creating them costs more than a block.
ZstdContexts& contexts() {
  thread_local ZstdContexts per_thread;
  return per_thread;
}

class ZstdCodec final : public BlockCodec {
 public:
  // level: the compression level, or 0 for a codec that only decompresses. A codec of
  // a shared dictionary (kZstdShared) has the dictionary's identity as its table.
  ZstdCodec(std::span<const std::uint8_t> dictionary, int level, Codec id = Codec::kZstd)
      : id_(id), level_(level) {
    if (id_ == Codec::kZstdShared) {
      const DictionaryIdentity identity = dictionary_identity(dictionary);
      table_.resize(kDictionaryIdentityBytes);
      for (int i = 0; i < 8; ++i) {
        table_[i] = static_cast<std::uint8_t>(identity.checksum >> (8 * i));
        table_[8 + i] = static_cast<std::uint8_t>(identity.bytes >> (8 * i));
      }
    } else {
      table_.assign(dictionary.begin(), dictionary.end());
    }
    if (dictionary.empty()) return;
    if (level_ != 0) compress_dictionary_ = ZSTD_createCDict(dictionary.data(), dictionary.size(), level_);
    decompress_dictionary_ = ZSTD_createDDict(dictionary.data(), dictionary.size());
    if ((level_ != 0 && compress_dictionary_ == nullptr) || decompress_dictionary_ == nullptr) {
      ZSTD_freeCDict(compress_dictionary_);
      ZSTD_freeDDict(decompress_dictionary_);
      fail("the zstd dictionary is malformed");
    }
  }
  ~ZstdCodec() override {
    ZSTD_freeCDict(compress_dictionary_);
    ZSTD_freeDDict(decompress_dictionary_);
  }
  ZstdCodec(const ZstdCodec&) = delete;
  ZstdCodec& operator=(const ZstdCodec&) = delete;

  [[nodiscard]] Codec id() const override { return id_; }
  [[nodiscard]] const std::vector<std::uint8_t>& table() const override { return table_; }

  void compress(std::span<const std::uint8_t> image, std::vector<std::uint8_t>& out) const override {
    if (level_ == 0) fail("internal error: a zstd codec made for reading cannot compress");
    ZSTD_CCtx* context = contexts().compress;
    ZSTD_CCtx_reset(context, ZSTD_reset_session_and_parameters);
    check(ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level_));
    check(ZSTD_CCtx_setParameter(context, ZSTD_c_format, ZSTD_f_zstd1_magicless));
    check(ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, 0));
    check(ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 0));
    check(ZSTD_CCtx_setParameter(context, ZSTD_c_dictIDFlag, 0));
    if (compress_dictionary_ != nullptr) check(ZSTD_CCtx_refCDict(context, compress_dictionary_));
    out.resize(ZSTD_compressBound(image.size()));
    const std::size_t size = ZSTD_compress2(context, out.data(), out.size(), image.data(), image.size());
    check(size);
    out.resize(size);
  }

  [[nodiscard]] bool decompress(std::span<const std::uint8_t> data,
                                std::span<std::uint8_t> image) const override {
    ZSTD_DCtx* context = contexts().decompress;
    ZSTD_DCtx_reset(context, ZSTD_reset_session_and_parameters);
    if (ZSTD_isError(ZSTD_DCtx_setParameter(context, ZSTD_d_format, ZSTD_f_zstd1_magicless))) return false;
    if (decompress_dictionary_ != nullptr &&
        ZSTD_isError(ZSTD_DCtx_refDDict(context, decompress_dictionary_)))
      return false;
    const std::size_t size =
        ZSTD_decompressDCtx(context, image.data(), image.size(), data.data(), data.size());
    return !ZSTD_isError(size) && size == image.size();
  }

 private:
  static void check(std::size_t result) {
    if (ZSTD_isError(result)) fail("zstd: {}", ZSTD_getErrorName(result));
  }

  Codec id_;
  int level_;
  std::vector<std::uint8_t> table_;
  ZSTD_CDict* compress_dictionary_ = nullptr;
  ZSTD_DDict* decompress_dictionary_ = nullptr;
};

// How much of the samples a dictionary is trained on.
constexpr std::size_t kTrainingBytes = 4 << 20;

std::vector<std::uint8_t> train_dictionary(const std::vector<std::span<const std::uint8_t>>& samples,
                                           std::size_t max_bytes) {
  std::size_t total = 0;
  for (const auto& sample : samples) total += sample.size();
  // Evenly spaced samples up to the training budget.
  const std::size_t step = std::max<std::size_t>(1, (total + kTrainingBytes - 1) / kTrainingBytes);
  std::vector<std::uint8_t> buffer;
  std::vector<std::size_t> sizes;
  for (std::size_t i = 0; i < samples.size(); i += step) {
    buffer.insert(buffer.end(), samples[i].begin(), samples[i].end());
    sizes.push_back(samples[i].size());
  }
  const std::size_t capacity = std::clamp<std::size_t>(buffer.size() / 32, 256, max_bytes);
  if (sizes.size() < 8 || buffer.size() < 8 * capacity) return {};
  std::vector<std::uint8_t> dictionary(capacity);
  const std::size_t size = ZDICT_trainFromBuffer(dictionary.data(), dictionary.size(), buffer.data(),
                                                 sizes.data(), static_cast<unsigned>(sizes.size()));
  if (ZDICT_isError(size) != 0U) return {};  // too little or too uniform data: no dictionary
  dictionary.resize(size);
  return dictionary;
}

}  // namespace

std::vector<std::uint8_t> train_zstd_dictionary(const std::vector<std::span<const std::uint8_t>>& samples,
                                                std::size_t max_bytes) {
  return train_dictionary(samples, max_bytes);
}

DictionaryIdentity dictionary_identity(std::span<const std::uint8_t> dictionary) {
  return {XXH3_64bits(dictionary.data(), dictionary.size()), dictionary.size()};
}

DictionaryIdentity parse_dictionary_identity(std::span<const std::uint8_t> table) {
  if (table.size() != kDictionaryIdentityBytes)
    fail("malformed shared-dictionary table ({} bytes, expected {})", table.size(), kDictionaryIdentityBytes);
  DictionaryIdentity identity;
  for (int i = 0; i < 8; ++i) {
    identity.checksum |= static_cast<std::uint64_t>(table[i]) << (8 * i);
    identity.bytes |= static_cast<std::uint64_t>(table[8 + i]) << (8 * i);
  }
  return identity;
}

std::unique_ptr<BlockCodec> shared_zstd_codec(std::span<const std::uint8_t> dictionary, int zstd_level) {
  if (dictionary.empty()) fail("internal error: a shared zstd dictionary is empty");
  return std::make_unique<ZstdCodec>(dictionary, zstd_level, Codec::kZstdShared);
}

std::unique_ptr<BlockCodec> zstd_codec(std::span<const std::uint8_t> dictionary, int zstd_level) {
  return std::make_unique<ZstdCodec>(dictionary, zstd_level);
}

std::unique_ptr<BlockCodec> make_codec(Codec codec, unsigned bits, std::span<const std::uint8_t> table) {
  switch (codec) {
    case Codec::kNone:
      if (!table.empty()) fail("the stored codec has a table");
      return std::make_unique<StoredCodec>();
    case Codec::kRunLength: {
      if (table.size() < 4 || table[0] != 1) fail("malformed run-length table");
      const unsigned size = table[1];
      if (size == 0 || table.size() != 4 + 2 * std::size_t{size}) fail("malformed run-length table");
      std::vector<ValueCode> alphabet(size);
      for (unsigned a = 0; a < size; ++a)
        alphabet[a] = static_cast<ValueCode>(table[4 + 2 * a] | (table[5 + 2 * a] << 8));
      auto result = std::make_unique<RunLengthCodec>(bits, std::move(alphabet));
      if (!std::equal(table.begin(), table.end(), result->table().begin(), result->table().end()))
        fail("malformed run-length table");
      return result;
    }
    case Codec::kZstd: return std::make_unique<ZstdCodec>(table, 0);
    case Codec::kZstdShared:
      fail("internal error: the shared-dictionary codec is made from its dictionary file");
  }
  fail("unknown codec {}", static_cast<int>(codec));
}

std::unique_ptr<BlockCodec> fit_codec(Codec codec, unsigned bits,
                                      const std::vector<std::span<const std::uint8_t>>& samples,
                                      bool dictionary, int zstd_level) {
  switch (codec) {
    case Codec::kNone: return std::make_unique<StoredCodec>();
    case Codec::kZstd:
      return std::make_unique<ZstdCodec>(
          dictionary ? train_dictionary(samples, kTierDictionaryBytes) : std::vector<std::uint8_t>{},
          zstd_level);
    case Codec::kZstdShared:
      fail("internal error: the shared-dictionary codec is made from its dictionary file");
    case Codec::kRunLength: break;
  }
  // The alphabet: the most frequent symbols, as many as give the smallest samples.
  std::map<ValueCode, std::uint64_t> counts;
  std::vector<std::vector<ValueCode>> unpacked;
  for (const auto& sample : samples) {
    std::vector<ValueCode> symbols(sample.size() * 8 / bits);
    unpack_image(sample, bits, symbols);
    for (const ValueCode symbol : symbols) ++counts[symbol];
    unpacked.push_back(std::move(symbols));
  }
  std::vector<std::pair<std::uint64_t, ValueCode>> by_count;
  by_count.reserve(counts.size());
  for (const auto& [symbol, count] : counts) by_count.emplace_back(count, symbol);
  std::stable_sort(by_count.begin(), by_count.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  if (by_count.empty()) by_count.emplace_back(0, kDrawCode);
  std::unique_ptr<RunLengthCodec> best;
  std::size_t best_size = 0;
  for (const std::size_t size : {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 24, 32}) {
    if (size > by_count.size()) break;
    std::vector<ValueCode> alphabet;
    for (std::size_t a = 0; a < size; ++a) alphabet.push_back(by_count[a].second);
    auto candidate = std::make_unique<RunLengthCodec>(bits, std::move(alphabet));
    std::size_t total = 0;
    for (const auto& symbols : unpacked) total += candidate->encoded_size(symbols);
    if (!best || total < best_size) {
      best = std::move(candidate);
      best_size = total;
    }
  }
  return best;
}

}  // namespace gs::db
