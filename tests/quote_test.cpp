// Input echoed in messages (core/quote.h): cut to a bounded excerpt, control characters
// escaped, and the result valid UTF-8 whatever the bytes given.
#include "core/quote.h"

#include <gtest/gtest.h>

#include <string>

namespace gs {
namespace {

// Whether text is valid UTF-8 without control characters (other than none at all).
bool clean_utf8(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = 1;
    if (lead < 0x80) {
      if (lead < 0x20 || lead == 0x7F) return false;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
    } else {
      return false;
    }
    if (i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0U) != 0x80U) return false;
    }
    i += length;
  }
  return true;
}

TEST(Quote, ShortTextIsQuotedWhole) {
  EXPECT_EQ(quote_input("7/7 w"), "'7/7 w'");
  EXPECT_EQ(quote_input(""), "''");
  EXPECT_EQ(quote_input('x'), "'x'");
  EXPECT_EQ(quote_input("FEN", kQuoteLimit, '"'), "\"FEN\"");
}

TEST(Quote, ControlCharactersAreEscaped) {
  EXPECT_EQ(quote_input("a\nb\tc\rd"), "'a\\nb\\tc\\rd'");
  EXPECT_EQ(quote_input(std::string("a\0b\x1b[31m\x7f", 9)), "'a\\x00b\\x1B[31m\\x7F'");
  EXPECT_EQ(quote_input('\x01'), "'\\x01'");
}

TEST(Quote, InvalidUtf8BytesAreEscapedAndValidCharactersKept) {
  EXPECT_EQ(quote_input("D\xC5\x8D"
                        "butsu"),
            "'D\xC5\x8D"
            "butsu'");  // o with macron
  EXPECT_EQ(quote_input("\xff\xfe"), "'\\xFF\\xFE'");
  EXPECT_EQ(quote_input("a\xC5"), "'a\\xC5'");                           // cut inside a character
  EXPECT_EQ(quote_input("\xC0\xAF"), "'\\xC0\\xAF'");                    // an overlong '/'
  EXPECT_EQ(quote_input("\xED\xA0\x80"), "'\\xED\\xA0\\x80'");           // a surrogate
  EXPECT_EQ(quote_input("\xF4\x90\x80\x80"), "'\\xF4\\x90\\x80\\x80'");  // past U+10FFFF
  EXPECT_EQ(quote_input("\xF0\x9F\x90\x98"), "'\xF0\x9F\x90\x98'");      // an elephant
  EXPECT_TRUE(clean_utf8(quote_input("\x80\xbf\xc3(\xe2\x82\n\xf0\x9f")));
}

TEST(Quote, LongTextIsCutAtACharacterWithItsSize) {
  const std::string big(1 << 20, 'r');
  const std::string shown = quote_input(big);
  EXPECT_EQ(shown, "'" + std::string(kQuoteLimit, 'r') + "...' (1048576 bytes)");
  // Cut by characters, never inside one: 100 two-byte characters keep 80 whole ones.
  std::string wide;
  for (int i = 0; i < 100; ++i) wide += "\xC3\xA9";
  const std::string cut = quote_input(wide);
  EXPECT_TRUE(cut.starts_with("'\xC3\xA9"));
  EXPECT_TRUE(cut.ends_with("...' (200 bytes)")) << cut;
  EXPECT_EQ(cut.size(), 1 + 2 * kQuoteLimit + std::string("...' (200 bytes)").size());
  EXPECT_TRUE(clean_utf8(cut));
  // Text of exactly the limit is whole.
  EXPECT_EQ(quote_input(std::string(kQuoteLimit, 'x')), "'" + std::string(kQuoteLimit, 'x') + "'");
}

TEST(Quote, WholeMessagesAreEscapedAndBounded) {
  EXPECT_EQ(printable("bad\x1b[2J"), "bad\\x1B[2J");
  const std::string huge = "position " + std::string(100000, 'x');
  const std::string shown = printable(huge);
  EXPECT_EQ(shown.size(), kMessageLimit + std::string("... (100009 bytes)").size());
  EXPECT_TRUE(shown.ends_with("... (100009 bytes)"));
}

}  // namespace
}  // namespace gs
