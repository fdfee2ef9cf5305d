#pragma once
// The library's errors from the service's: every exception a call can meet becomes a
// gamesolver::Error of the kind it is (gamesolver/error.h), with the same message.
#include <new>
#include <stdexcept>
#include <utility>

#include "app/input_error.h"
#include "core/error.h"
#include "gamesolver/error.h"

namespace gamesolver::detail {

// Runs body; a gs::Error that is neither bad input nor something missing becomes an
// Error of kind `otherwise`.
template <class Body>
decltype(auto) translated(ErrorKind otherwise, Body&& body) {
  try {
    return std::forward<Body>(body)();
  } catch (const Error&) {
    throw;
  } catch (const gs::app::InputError& error) {
    throw Error(ErrorKind::kInput, error.what());
  } catch (const gs::app::NotFoundError& error) {
    throw Error(ErrorKind::kNotFound, error.what());
  } catch (const gs::Error& error) {
    throw Error(otherwise, error.what());
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::kInternal, "out of memory");
  } catch (const std::exception& error) {
    throw Error(ErrorKind::kInternal, error.what());
  }
}

}  // namespace gamesolver::detail
