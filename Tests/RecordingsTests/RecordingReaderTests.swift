import Recordings
import Testing
import TestSupport
