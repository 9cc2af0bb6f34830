# In the test project's folder, beside that nuget.config: the release's three .nupkg files into
# ./nupkgs (Malachite.Client too: both others depend on it), then the packages the examples use.
mkdir -p nupkgs
for id in Malachite.Client Malachite.Server Malachite.Testcontainers; do
  curl -fsSL -o nupkgs/$id.$V.nupkg https://github.com/$REPO/releases/download/v$V/$id.$V.nupkg
done
dotnet add package Azure.Data.Tables
dotnet add package Malachite.Server --version $V          # MalachiteServer: the binary, in the package
dotnet add package Malachite.Testcontainers --version $V  # MalachiteBuilder: the Docker image
