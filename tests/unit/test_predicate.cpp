// The predicate language of predicate reads (engine/history/predicate.hpp):
// parsing, printing back, and which versions satisfy a predicate.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "engine/history/history.hpp"
#include "engine/history/predicate.hpp"

using namespace iso;

namespace {

Predicate parsed(const std::string& text) {
  std::string why;
  const auto p = parse_predicate(text, &why);
  INFO(text, ": ", why);
  REQUIRE(p.has_value());
  return *p;
}

Key key(std::string text, bool integer = false) { return Key{std::move(text), integer}; }

}  // namespace

TEST_CASE("predicates: the text form parses and prints back") {
  for (const std::string text : {"[1,5]", "prefix:user", "v=3", "v!=null", "v<3", "v<=-2", "v>\"b\"",
                                 "v>=7", "[a,c] && v=2", "prefix:x && v!=\"y\"", "true", "v%2=0",
                                 "[1,9] && v%3=-1"}) {
    const Predicate p = parsed(text);
    CHECK(p.text() == text);
    CHECK(parsed(p.text()) == p);
  }
  CHECK(parsed(" [ 1 , 5 ] ").text() == "[1,5]");
}

TEST_CASE("predicates: malformed ones are refused with a reason") {
  for (const char* text : {"", "[1,5", "[,5]", "x<3", "v<null", "v~3", "v<abc", "[1,2] && w=3", "prefix",
                           "v%0=0", "v%2", "v%2=x", "v%-3=1", "truth"}) {
    std::string why;
    CHECK_FALSE(parse_predicate(text, &why).has_value());
    CHECK_FALSE(why.empty());
  }
}

TEST_CASE("predicates: which keys and versions satisfy them") {
  // Integer keys and bounds compare as integers, others by bytes.
  const Predicate range = parsed("[2,10]");
  CHECK(range.covers(key("2", true)));
  CHECK(range.covers(key("9", true)));
  CHECK(range.covers(key("10", true)));
  CHECK_FALSE(range.covers(key("11", true)));
  CHECK_FALSE(range.covers(key("1", true)));
  const Predicate letters = parsed("[b,d]");
  CHECK(letters.covers(key("c")));
  CHECK(letters.covers(key("cz")));
  CHECK_FALSE(letters.covers(key("a")));
  CHECK_FALSE(letters.covers(key("da")));
  CHECK(parsed("prefix:us").covers(key("user")));
  CHECK_FALSE(parsed("prefix:us").covers(key("u")));
  // Any live version in range satisfies a key condition alone.
  CHECK(range.holds(key("3", true), Value{std::int64_t{7}}));
  CHECK(range.holds(key("3", true), Value{std::monostate{}}));
  CHECK_FALSE(range.holds(key("30", true), Value{std::int64_t{7}}));
  // Value conditions: only values of the constant's type are ordered.
  const Predicate lt = parsed("v<3");
  CHECK(lt.holds(key("x"), Value{std::int64_t{2}}));
  CHECK_FALSE(lt.holds(key("x"), Value{std::int64_t{3}}));
  CHECK_FALSE(lt.holds(key("x"), Value{std::string("1")}));
  CHECK_FALSE(lt.holds(key("x"), Value{std::monostate{}}));
  CHECK(parsed("v=2").holds(key("x"), Value{std::int64_t{2}}));
  CHECK(parsed("v!=2").holds(key("x"), Value{std::string("2")}));
  CHECK(parsed("v=null").holds(key("x"), Value{std::monostate{}}));
  CHECK(parsed("v>=\"b\"").holds(key("x"), Value{std::string("b")}));
  // Both: the key condition and the value condition.
  const Predicate both = parsed("[a,c] && v=2");
  CHECK(both.holds(key("b"), Value{std::int64_t{2}}));
  CHECK_FALSE(both.holds(key("d"), Value{std::int64_t{2}}));
  CHECK_FALSE(both.holds(key("b"), Value{std::int64_t{3}}));
  // Remainders are floored (Elle's mod): -3 mod 2 is 1; only integers.
  const Predicate even = parsed("v%2=0");
  CHECK(even.holds(key("x"), Value{std::int64_t{4}}));
  CHECK_FALSE(even.holds(key("x"), Value{std::int64_t{-3}}));
  CHECK(parsed("v%2=1").holds(key("x"), Value{std::int64_t{-3}}));
  CHECK_FALSE(even.holds(key("x"), Value{std::string("4")}));
  // true: every live version of every key, and no dead one.
  CHECK(parsed("true").holds(key("x"), Value{std::monostate{}}));
  CHECK_FALSE(parsed("true").holds(key("x"), Value{Deleted{}}));
}

TEST_CASE("predicates: the key index finds exactly the keys a scan finds") {
  std::mt19937_64 rng(11);
  const std::vector<std::string> texts = {"a", "ab", "abc", "b", "ba", "x", "y", "z", "user1", "user2", "-3", "0",
                                          "7", "10", "12", "100", "007", "1a"};
  for (int round = 0; round < 300; ++round) {
    History h;
    for (const auto& t : texts)
      if (rng() % 2 == 0) h.intern_key(t);
    const KeyIndex index(h);
    for (const char* text : {"[0,10]", "[-5,7]", "[a,b]", "[1,z]", "[a,1]", "prefix:ab", "prefix:user", "prefix:",
                             "v=1", "[10,100] && v>0", "[x,x]", "[12,7]"}) {
      INFO(text);
      const Predicate p = *parse_predicate(text);
      std::vector<KeyId> scan;
      for (KeyId k = 0; k < h.keys().size(); ++k)
        if (p.covers(h.keys()[k])) scan.push_back(k);
      CHECK(index.covered(p) == scan);
    }
  }
}
